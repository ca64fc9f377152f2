/** The parts of ltijs and its Sequelize plugin (shipped without types) the LTI round trip uses. */
declare module "ltijs" {
  import type { RequestListener } from "node:http";

  /** Express's response, as far as the handlers here use it. */
  export interface Response {
    status(code: number): Response;
    send(body: unknown): Response;
  }

  /** What ltijs hands a launch's handlers: the id_token's claims as it stored them. */
  export interface IdToken {
    iss: string;
    user: string;
    clientId: string;
    deploymentId: string;
    userInfo: { name?: string; email?: string; given_name?: string; family_name?: string };
    platformContext: {
      context: { id: string; title?: string };
      resource?: { id: string; title?: string };
      roles: string[];
      custom?: Record<string, string>;
      messageType: string;
      endpoint?: { lineitems?: string; scope?: string[] };
      namesRoles?: { context_memberships_url: string };
      deepLinkingSettings?: { deep_link_return_url: string; data?: string };
    };
  }
  type Handler = (token: IdToken, req: unknown, res: Response) => unknown;

  export interface LineItem {
    id: string;
    label: string;
    scoreMaximum: number;
    resourceLinkId?: string;
    tag?: string;
  }
  export interface Member {
    user_id: string;
    roles: string[];
    name?: string;
    email?: string;
    status?: string;
  }

  export interface ProviderInstance {
    /** The Express app: a request listener. */
    app: RequestListener;
    setup(key: string, database: { plugin: unknown }, options: Record<string, unknown>): ProviderInstance;
    deploy(options: { serverless?: boolean; silent?: boolean; port?: number }): Promise<true>;
    close(options: { silent: boolean }): Promise<true>;
    onConnect(handler: Handler): true;
    onDeepLinking(handler: Handler): true;
    registerPlatform(platform: {
      url: string;
      name: string;
      clientId: string;
      authenticationEndpoint: string;
      accesstokenEndpoint: string;
      authConfig: { method: "JWK_SET" | "JWK_KEY" | "RSA_KEY"; key: string };
    }): Promise<unknown>;
    getPlatform(url: string, clientId: string): Promise<unknown>;
    DeepLinking: {
      createDeepLinkingForm(
        token: IdToken,
        items: unknown[],
        options?: { message?: string },
      ): Promise<string>;
    };
    NamesAndRoles: {
      getMembers(
        token: IdToken,
        options?: { role?: string; limit?: number; pages?: number | false },
      ): Promise<{ id: string; context: { id: string }; members: Member[]; next?: string }>;
    };
    Grade: {
      createLineItem(token: IdToken, item: Omit<LineItem, "id">): Promise<LineItem>;
      getLineItems(token: IdToken, options?: Record<string, unknown>): Promise<{ lineItems: LineItem[] }>;
      submitScore(token: IdToken, lineItemId: string, score: Record<string, unknown>): Promise<unknown>;
      getScores(token: IdToken, lineItemId: string, options?: Record<string, unknown>): Promise<unknown>;
      deleteLineItemById(token: IdToken, lineItemId: string): Promise<true>;
    };
  }
  export const Provider: ProviderInstance;
}

declare module "ltijs-sequelize" {
  export default class Database {
    constructor(
      database: string,
      user: string,
      password: string,
      options: { dialect: "postgres"; host: string; port: number; logging: false },
    );
  }
}
