import { describe, expect, it } from "vitest";
import { loadAiConfig } from "./ai.js";

describe("AI configuration", () => {
  const base = { AI_BASE_URL: "https://api.example.com/v1/", AI_API_KEY: "sk-x", AI_MODEL: "m" };

  it("takes an optional embeddings model beside the platform's provider", () => {
    expect(loadAiConfig(base).environment).toEqual({
      baseUrl: "https://api.example.com/v1",
      apiKey: "sk-x",
      model: "m",
    });
    expect(loadAiConfig({ ...base, AI_EMBEDDING_MODEL: "e" }).environment?.embeddingModel).toBe("e");
  });
});
