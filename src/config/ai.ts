import { ConfigError, type Env, int, optional } from "./env.js";

/**
 * The platform's own AI provider, used by institutions that configured none (AI_BASE_URL, AI_API_KEY,
 * AI_MODEL, and AI_EMBEDDING_MODEL for knowledge bases' hybrid rank), and how calls to any provider behave. Without a provider, routes that generate answer 503.
 */
export interface AiConfig {
  environment?: { baseUrl: string; apiKey: string; model: string; embeddingModel?: string };
  /** AI_TIMEOUT_MS: one attempt's deadline, default 60 s. */
  timeoutMs: number;
  /** AI_MAX_RETRIES: further attempts after a 429 or 5xx (honouring Retry-After), default 2. */
  maxRetries: number;
}

export function loadAiConfig(env: Env): AiConfig {
  const baseUrl = optional(env, "AI_BASE_URL");
  const apiKey = optional(env, "AI_API_KEY");
  const model = optional(env, "AI_MODEL");
  const embeddingModel = optional(env, "AI_EMBEDDING_MODEL");
  const timing = {
    timeoutMs: int(env, "AI_TIMEOUT_MS", 60_000, 1),
    maxRetries: int(env, "AI_MAX_RETRIES", 2, 0),
  };
  if (baseUrl === undefined && apiKey === undefined && model === undefined) return timing;
  if (baseUrl === undefined || apiKey === undefined || model === undefined) {
    throw new ConfigError("AI_BASE_URL, AI_API_KEY and AI_MODEL are set together or not at all");
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError("AI_BASE_URL must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError("AI_BASE_URL must be http(s)");
  return {
    ...timing,
    environment: {
      baseUrl: url.href.replace(/\/$/, ""),
      apiKey,
      model,
      ...(embeddingModel === undefined ? {} : { embeddingModel }),
    },
  };
}
