/** Prompt bodies for the prompt, limit and security-matrix tests. Test support only. */
export function promptBody(extra: Record<string, unknown> = {}) {
  return {
    key: `tutor.${Math.random().toString(36).slice(2, 10)}`,
    name: "Tutor",
    feature: "tutor_chat",
    template: "Você é tutor de {{course}}. Pergunta: {{question}}",
    variables: [{ name: "course" }, { name: "question", description: "What the student asked" }],
    modelParams: { maxOutputTokens: 50 },
    ...extra,
  };
}

export const VALUES = { variables: { course: "Álgebra", question: "O que é um grupo?" } };
