/** The parts of the verifier libraries (shipped without types) the badge credential tests use. */
declare module "@digitalcredentials/vc" {
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: (url: string) => Promise<unknown>;
    checkStatus?: (options: { credential: unknown }) => Promise<{ verified: boolean; error?: unknown }>;
  }): Promise<{
    verified: boolean;
    error?: { message?: string; errors?: { message: string }[] };
    results?: { verified: boolean }[];
    statusResult?: { verified: boolean; error?: unknown };
  }>;
}
declare module "@digitalcredentials/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown });
  }
}
declare module "@digitalcredentials/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}
declare module "@digitalbazaar/did-method-key" {
  export function driver(): {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: unknown }): void;
    get(options: { did?: string; url?: string }): Promise<Record<string, unknown>>;
  };
}
declare module "@digitalbazaar/vc-bitstring-status-list" {
  export function decodeList(options: {
    encodedList: string;
  }): Promise<{ getStatus(index: number): boolean }>;
}
