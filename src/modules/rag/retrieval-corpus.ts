/**
 * A small corpus for the retrieval test (issue 25): short passages in Portuguese and English, written for this
 * test, and questions whose answer is one known passage. Questions are worded as a student would ask, not
 * copied from the passage: they share some content words with it, in other forms (plural, verb tense, accents
 * dropped or case changed).
 */
export interface Passage {
  key: string;
  language: "pt" | "en";
  text: string;
}

export const PASSAGES: Passage[] = [
  {
    key: "pt-fotossintese",
    language: "pt",
    text: "A fotossíntese é o processo pelo qual as plantas usam a luz do sol, a água e o gás carbônico para produzir glicose e liberar oxigênio. Ocorre nos cloroplastos, graças à clorofila.",
  },
  {
    key: "pt-revolucao",
    language: "pt",
    text: "A Revolução Francesa começou em 1789 com a queda da Bastilha. Ela aboliu privilégios da nobreza e do clero e difundiu os ideais de liberdade, igualdade e fraternidade.",
  },
  {
    key: "pt-mitocondria",
    language: "pt",
    text: "As mitocôndrias são organelas responsáveis pela respiração celular. Nelas a glicose é oxidada e a energia é armazenada em moléculas de ATP.",
  },
  {
    key: "pt-pitagoras",
    language: "pt",
    text: "O teorema de Pitágoras afirma que, em um triângulo retângulo, o quadrado da hipotenusa é igual à soma dos quadrados dos catetos.",
  },
  {
    key: "pt-independencia",
    language: "pt",
    text: "A independência do Brasil foi proclamada por Dom Pedro I às margens do riacho Ipiranga, em 7 de setembro de 1822.",
  },
  {
    key: "pt-ciclo-agua",
    language: "pt",
    text: "No ciclo da água, a evaporação dos oceanos forma nuvens; a condensação e a precipitação devolvem a água ao solo, aos rios e aos lençóis freáticos.",
  },
  {
    key: "pt-newton",
    language: "pt",
    text: "A segunda lei de Newton diz que a força resultante sobre um corpo é igual ao produto da sua massa pela sua aceleração.",
  },
  {
    key: "pt-verbos",
    language: "pt",
    text: "Verbos transitivos diretos exigem um complemento sem preposição, chamado objeto direto; os transitivos indiretos pedem objeto indireto, introduzido por preposição.",
  },
  {
    key: "pt-amazonia",
    language: "pt",
    text: "A Floresta Amazônica é a maior floresta tropical do mundo e abriga enorme biodiversidade. O desmatamento ameaça espécies e altera o regime de chuvas.",
  },
  {
    key: "pt-equacao",
    language: "pt",
    text: "Uma equação do segundo grau pode ser resolvida pela fórmula de Bhaskara, usando o discriminante delta igual a b ao quadrado menos quatro vezes a vezes c.",
  },
  {
    key: "pt-celula",
    language: "pt",
    text: "A membrana plasmática envolve a célula e controla a entrada e a saída de substâncias; é formada por uma bicamada de fosfolipídios com proteínas.",
  },
  {
    key: "pt-romantismo",
    language: "pt",
    text: "O Romantismo brasileiro valorizou o nacionalismo e o indianismo; José de Alencar escreveu O Guarani e Iracema.",
  },
  {
    key: "pt-eletricidade",
    language: "pt",
    text: "A lei de Ohm relaciona tensão, corrente e resistência elétrica: a tensão é o produto da resistência pela corrente.",
  },
  {
    key: "pt-vulcao",
    language: "pt",
    text: "Vulcões se formam onde o magma do manto sobe através da crosta, muitas vezes nos limites entre placas tectônicas.",
  },
  {
    key: "pt-inflacao",
    language: "pt",
    text: "Inflação é o aumento generalizado e contínuo dos preços, que reduz o poder de compra da moeda; o Banco Central a combate elevando a taxa de juros.",
  },
  {
    key: "en-dna",
    language: "en",
    text: "DNA is a double helix made of two strands of nucleotides. The bases adenine, thymine, guanine and cytosine pair up and carry genetic information.",
  },
  {
    key: "en-gravity",
    language: "en",
    text: "Newton's law of universal gravitation states that every mass attracts every other mass with a force proportional to the product of their masses.",
  },
  {
    key: "en-ww1",
    language: "en",
    text: "World War I began in 1914 after the assassination of Archduke Franz Ferdinand in Sarajevo, and ended with the armistice of November 1918.",
  },
  {
    key: "en-photosynthesis-light",
    language: "en",
    text: "Light-dependent reactions take place in the thylakoid membranes, where sunlight splits water molecules and releases oxygen.",
  },
  {
    key: "en-supply",
    language: "en",
    text: "The law of supply and demand says that when demand for a good rises and supply stays the same, its price tends to increase.",
  },
  {
    key: "en-shakespeare",
    language: "en",
    text: "William Shakespeare wrote tragedies such as Hamlet, Macbeth and Othello, and comedies like A Midsummer Night's Dream.",
  },
  {
    key: "en-volcano",
    language: "en",
    text: "Tectonic plates float on the mantle; earthquakes happen when plates slide past each other and suddenly release stored stress.",
  },
  {
    key: "en-fractions",
    language: "en",
    text: "To add fractions with different denominators, rewrite them over a common denominator, then add the numerators.",
  },
  {
    key: "en-climate",
    language: "en",
    text: "Greenhouse gases such as carbon dioxide and methane trap heat in the atmosphere, which drives global warming and climate change.",
  },
  {
    key: "en-immune",
    language: "en",
    text: "White blood cells defend the body against infections; vaccines train the immune system to recognise a pathogen before exposure.",
  },
  {
    key: "en-programming",
    language: "en",
    text: "A loop repeats a block of code while a condition holds; an infinite loop never ends because its condition never becomes false.",
  },
  {
    key: "en-moon",
    language: "en",
    text: "The phases of the Moon, from new moon to full moon, result from how much of its sunlit side faces the Earth during its monthly orbit.",
  },
  {
    key: "en-renaissance",
    language: "en",
    text: "The Renaissance started in fourteenth-century Florence; artists like Leonardo da Vinci and Michelangelo revived classical ideals.",
  },
  {
    key: "en-electricity",
    language: "en",
    text: "Current flows in a closed circuit; in a series circuit the same current passes through every resistor, while voltages add up.",
  },
  {
    key: "en-water",
    language: "en",
    text: "Water boils at 100 degrees Celsius at sea level; at higher altitudes the lower air pressure makes it boil at a lower temperature.",
  },
];

export const QUESTIONS: { question: string; answer: string }[] = [
  { question: "Como as plantas produzem glicose usando luz?", answer: "pt-fotossintese" },
  { question: "Quando começou a revolucao francesa?", answer: "pt-revolucao" },
  { question: "Qual organela faz a respiração celular e produz ATP?", answer: "pt-mitocondria" },
  { question: "o que diz o teorema de pitagoras sobre a hipotenusa", answer: "pt-pitagoras" },
  { question: "Quem proclamou a independência do Brasil e em que data?", answer: "pt-independencia" },
  { question: "Como se formam as nuvens e as chuvas no ciclo da agua?", answer: "pt-ciclo-agua" },
  { question: "Qual é a relação entre força, massa e aceleração?", answer: "pt-newton" },
  { question: "O que é um objeto direto nos verbos transitivos?", answer: "pt-verbos" },
  { question: "Por que o desmatamento da Amazônia ameaça as espécies?", answer: "pt-amazonia" },
  { question: "Como resolver equações do segundo grau com Bhaskara?", answer: "pt-equacao" },
  { question: "Quais obras José de Alencar escreveu no Romantismo?", answer: "pt-romantismo" },
  { question: "O que é a inflação e como o Banco Central a combate?", answer: "pt-inflacao" },
  { question: "What bases pair up in the DNA double helix?", answer: "en-dna" },
  { question: "What started World War I?", answer: "en-ww1" },
  { question: "Where do the light-dependent reactions happen?", answer: "en-photosynthesis-light" },
  { question: "Why do prices rise when demand increases?", answer: "en-supply" },
  { question: "Which tragedies did Shakespeare write?", answer: "en-shakespeare" },
  { question: "What causes earthquakes?", answer: "en-volcano" },
  { question: "How do I add fractions with different denominators?", answer: "en-fractions" },
  { question: "How do greenhouse gases cause global warming?", answer: "en-climate" },
  { question: "How do vaccines train the immune system?", answer: "en-immune" },
  { question: "Why does water boil at a lower temperature at high altitude?", answer: "en-water" },
];
