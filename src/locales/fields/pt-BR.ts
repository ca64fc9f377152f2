import type { FieldMessageKey } from "./en-US.js";

export const ptBRFields: Readonly<Record<FieldMessageKey, string>> = {
  "field.ends_before_starts": "Deve ser posterior a startsAt.",
  "field.future_required": "Deve estar no futuro.",
  "field.max_days_ahead":
    "Deve estar a no máximo {days, plural, one {# dia} other {# dias}} a partir de agora.",
  "field.header_reserved":
    "Este cabeçalho é definido pela plataforma ou pelo próprio HTTP e não pode ser configurado.",
  "field.url_forbidden":
    "Deve ser uma URL http(s) de um host público, sem templates nem credenciais. Um endereço da sua própria máquina ou rede (um receptor durante o desenvolvimento) só é aceito quando o operador do servidor inclui sua faixa em OUTBOUND_ALLOW_CIDRS, por exemplo 127.0.0.1/32.",
  "field.required": "Este campo é obrigatório.",
  "field.unknown": "Este campo não é permitido.",
  "field.unknown_cursor":
    "Nenhum evento com este id é mantido para esta instituição (os eventos são mantidos por 30 dias); recomece com `since`.",
  "field.type": "Deve ser do tipo {type}.",
  "field.format": "Deve ser um {format} válido.",
  "field.min_length": "Deve ter pelo menos {limit, plural, one {# caractere} other {# caracteres}}.",
  "field.max_length": "Deve ter no máximo {limit, plural, one {# caractere} other {# caracteres}}.",
  "field.minimum": "Deve ser maior ou igual a {limit, number, exact}.",
  "field.maximum": "Deve ser menor ou igual a {limit, number, exact}.",
  "field.exclusive_minimum": "Deve ser maior que {limit, number, exact}.",
  "field.exclusive_maximum": "Deve ser menor que {limit, number, exact}.",
  "field.enum": "Deve ser um dos valores: {values}.",
  "field.pattern": "Tem um formato inválido.",
  "field.min_items": "Deve conter pelo menos {limit, plural, one {# item} other {# itens}}.",
  "field.max_items": "Deve conter no máximo {limit, plural, one {# item} other {# itens}}.",
  "field.unique_items": "Não pode conter itens repetidos.",
  "field.invalid": "Não é válido.",
  "field.unstorable": "Não pode conter o caractere U+0000 nem um surrogate UTF-16 sem par.",
  "field.max_depth":
    "Não pode aninhar arrays e objetos em mais de {limit, plural, one {# nível} other {# níveis}}.",
  "field.host_header": "Deve ser um nome de host ou endereço IP, opcionalmente seguido de :porta.",
  "field.unknown_scope": "Escopo desconhecido: {scope}.",
  "field.unknown_class_group": "Turma desconhecida: {id}.",
  "field.unknown_lesson": "Aula desconhecida: {id}.",
  "field.unknown_question": "Questão desconhecida: {id}.",
  "field.unknown_question_bank": "Banco de questões desconhecido: {id}.",
  "field.lesson_not_quiz": "Deve ser uma aula do tipo quiz.",
  "field.not_for_type": "Não é permitido quando o tipo é {type}.",
  "field.correct_options_one": "Exatamente uma opção deve ser correta.",
  "field.correct_options_some": "Pelo menos uma opção deve ser correta.",
  "field.duplicate": "Repete um item anterior: {value}.",
  "field.numeric_form": "Informe value (com tolerance opcional) ou min e max.",
  "field.range_order": "Não pode ser maior que max.",
  "field.not_in_attempt": "Esta questão não faz parte da tentativa.",
  "field.over_time_limit":
    "É mais do que o tempo que a tentativa permite ({limit} segundos, mais {grace} segundos de tolerância).",
  "field.response_shape": "Não é uma resposta válida para uma questão do tipo {type}.",
  "field.answers_need_fixed":
    "Só é possível enviar respostas ao iniciar a tentativa se todas as seções forem fixas; inicie a tentativa e depois envie-a.",
  "field.timezone": "Deve ser um fuso horário IANA, como America/Sao_Paulo.",
  "field.host_name":
    "Deve ser um nome de domínio em minúsculas com pelo menos dois rótulos, como aulas.exemplo.com.br, e não um endereço IP.",
  "field.host_reserved": "Não pode ser o domínio da própria plataforma nem um subdomínio dele.",
  "field.tag_not_applicable": "Esta tag não se aplica a {resourceType}.",
  "field.custom_limits_required": "Obrigatório quando rateTier é custom.",
  "field.custom_limits_forbidden": "Permitido apenas quando rateTier é custom.",
  "field.missing_scope": "Escopo exigido: {scope}.",
  "field.no_changes": "Informe pelo menos um campo para alterar.",
  "field.not_for_lesson_type": "Não disponível para aulas do tipo {type}.",
  "field.url_or_media": "Informe exatamente um entre url e mediaId.",
  "field.https_url": "Deve ser uma URL https.",
  "field.criteria_only": "Só é permitido quando completionCriteria.type é {type}.",
  "field.due_before_unlock": "Não pode ser anterior a unlockAt.",
  "field.order_mismatch": "Deve listar cada item atual exatamente uma vez, e nada mais.",
  "field.same_course_module": "Deve ser um módulo do mesmo curso.",
  "field.prerequisite_invalid": "Deve ser um módulo do mesmo curso posicionado antes deste: {id}.",
  "field.order_breaks_prerequisites": "Esta ordem colocaria um módulo antes de um de seus pré-requisitos.",
  "field.unknown_user": "Usuário desconhecido: {id}.",
  "field.unknown_user_email": "Nenhum usuário com o e-mail {email}.",
  "field.unknown_live_class": "Aula ao vivo desconhecida: {id}.",
  "field.unknown_course": "Curso desconhecido: {id}.",
  "field.unknown_certificate_template": "Modelo de certificado desconhecido: {id}.",
  "field.unknown_learning_path": "Trilha de aprendizagem desconhecida: {id}.",
  "field.one_of_course_or_path": "Informe courseId ou learningPathId, não ambos.",
  "field.after_starts_at": "Deve ser posterior ao início da matrícula ({startsAt}).",
  "field.user_or_email": "Informe exatamente um entre userId e email.",
  "field.grading_scale_order": "Deve ser menor que o minPercent da faixa anterior.",
  "field.grading_scale_floor": "A última faixa deve começar em 0.",
  "field.email_domain_not_allowed": "A instituição só admite endereços de e-mail em: {domains}.",
  "field.profile_unknown": "Campo de perfil desconhecido: {key}.",
  "field.profile_option": "Deve ser uma das opções do campo: {values}.",
  "field.profile_date": "Deve ser uma data no formato AAAA-MM-DD.",
  "field.profile_options_for_type":
    "Opções são obrigatórias em campos select e multiselect, e não são permitidas em outros tipos.",
  "field.profile_validation_for_type": "Não é uma regra de validação de campos {type}.",
  "field.regex": "Deve ser uma expressão regular válida.",
  "field.regex_backtracking":
    "Referências anteriores e asserções (lookahead, lookbehind) não são suportadas: os padrões rodam em um mecanismo de tempo linear.",
  "field.regex_unsupported":
    "Usa uma sintaxe que o mecanismo de padrões de tempo linear não suporta: {syntax}.",
  "field.html_too_complex":
    "Demorou demais para ser sanitizado: simplifique o HTML (menos elementos aninhados) ou divida-o.",
  "field.regex_too_complex":
    "É complexo demais para o valor mais longo que este campo aceita: use repetições menores ou um maxLength menor.",
  "field.unknown_template_variable":
    "Variável desconhecida '{{'{name}'}}'; este modelo pode usar: {allowed}.",
  "field.unknown_template": "Modelo de e-mail desconhecido: {key}.",
  "field.reset_token_invalid":
    "Este link de redefinição de senha é inválido, expirou ou já foi usado. Peça um novo.",
  "field.no_recipients": "Nenhum destes usuários pode receber e-mail (desconhecido ou sem endereço).",
  "field.custom_template_key":
    "A chave de um modelo próprio é `custom.` seguido de 1 a 64 letras minúsculas, dígitos, `_` ou `-`.",
  "field.unknown_folder": "Pasta do drive desconhecida: {id}.",
  "field.unknown_class": "Turma desconhecida: {id}.",
  "field.unknown_media": "Arquivo desconhecido: {id}.",
  "field.media_kind": "O arquivo {id} não é do tipo {kind}.",
  "field.media_not_indexable":
    "O arquivo {id} ({contentType}) não tem texto para indexar: só arquivos PDF e de texto simples têm.",
  "field.media_too_large": "O arquivo {id} é maior que os {max} bytes que um documento pode ter.",
  "field.path_prerequisite": "Deve ser outro curso desta trilha: {id}.",
  "field.path_cycle": "Os pré-requisitos não podem formar um ciclo: {ids}.",
  "field.path_required_course": "Uma trilha precisa de pelo menos um curso obrigatório.",
  "field.folder_cycle": "Uma pasta não pode ser movida para dentro de si mesma ou de uma de suas subpastas.",
  "field.scope_target":
    "Informe courseId com o escopo course, classId com o escopo class, e nenhum dos dois com o escopo institution.",
  "field.scope_on_root_only":
    "Só uma pasta de primeiro nível tem escopo próprio; uma subpasta usa o da pasta-mãe.",
  "field.upload_interrupted": "O envio foi interrompido antes de o corpo chegar inteiro; envie de novo.",
  "field.rrule_invalid": "Deve ser uma regra de recorrência RFC 5545 (RRULE) válida, sem DTSTART.",
  "field.too_many_occurrences":
    "A regra gera mais de {limit, plural, one {# ocorrência} other {# ocorrências}}; informe COUNT ou UNTIL.",
  "field.rrule_too_frequent":
    "Repete no máximo uma vez por dia: FREQ é DAILY, WEEKLY, MONTHLY ou YEARLY, no horário do início (sem BYHOUR, BYMINUTE nem BYSECOND).",
  "field.rrule_never":
    "A regra não tem ocorrência em até {years, plural, one {# ano} other {# anos}} após o início.",
  "field.rrule_too_long":
    "A regra deve terminar (COUNT ou UNTIL) dentro de {years, plural, one {# ano} other {# anos}} a partir do início.",
  "field.window_too_long":
    "O intervalo de `from` a `to` não pode passar de {days, plural, one {# dia} other {# dias}}.",
  "field.audience_required": "Informe um curso, uma turma ou ao menos um convidado.",
  "field.video_provider_unusable": "Nenhum provedor de vídeo conectado para aulas ao vivo tem este id.",
  "field.not_active_staff": "Deve ser um professor ou administrador ativo desta instituição.",
  "field.lesson_not_in_course":
    "Nenhuma lição desta instituição tem este id, ou ela pertence a outro curso que não courseId.",
  "field.unknown_occurrence": "Esta aula ao vivo não tem ocorrência com este id.",
  "field.css_unreadable": "Não é um CSS legível: confira as chaves, as aspas e os comentários.",
  "field.profile_value_taken": "Outro usuário já tem este valor, e os valores deste campo devem ser únicos.",
  "field.profile_values_shared":
    "Alguns usuários compartilham um valor deste campo; ele só pode ser único quando os valores forem diferentes.",
  "field.profile_filter_value":
    "Não é um valor que este campo de perfil aceite (veja o tipo e as opções do campo).",
  "field.date_or_date_time":
    "Deve ser uma data (AAAA-MM-DD) ou uma data e hora com o deslocamento (RFC 3339, p. ex. 2026-03-01T09:00:00Z).",
  "field.unknown_grade_item": "Nenhum item de nota deste curso tem este id: {id}.",
  "field.unknown_grade_category": "Nenhuma categoria de notas deste curso tem este id: {id}.",
  "field.not_course_student": "Este usuário não é um aluno atual do curso: {id}.",
  "field.score_or_status": "Informe uma nota, uma nota substituta ou um status.",
  "field.score_above_max": "Deve ser no máximo {max} (maxPoints do item × 1,5).",
  "field.unknown_rubric": "Nenhuma rubrica da instituição ou deste curso tem este id: {id}.",
  "field.unknown_criterion": "A rubrica não tem critério com este id: {id}.",
  "field.unknown_rating": "O critério não tem nível com este id: {id}.",
  "field.criterion_unscored": "Cada critério precisa de uma pontuação; este não tem: {id}.",
  "field.rubric_points": "Deve estar entre {min} e {max} para este critério e nível.",
  "field.unknown_target": "Nenhuma tentativa de quiz desta instituição tem este id: {id}.",
  "field.rubric_other_course": "A rubrica pertence a outro curso que não o do trabalho avaliado.",
  "field.csv_columns": "O CSV precisa de uma linha de cabeçalho com as colunas: {columns}.",
  "field.lesson_not_assignment": "Deve ser uma aula do tipo assignment.",
  "field.lock_before_due": "Não pode ser anterior à data de entrega.",
  "field.submission_empty": "Informe bodyText, attachmentMediaIds ou url.",
  "field.kind_not_allowed": "Esta tarefa não aceita entregas do tipo {kind}.",
  "field.template_undeclared": "O modelo usa a variável {name}, que variables não declara.",
  "field.variable_unused": "A variável {name} está declarada, mas o modelo não a usa.",
  "field.template_placeholders":
    "O modelo pode ter no máximo {limit, plural, one {# marcador} other {# marcadores}}.",
  "field.variable_missing": "A variável obrigatória {name} não tem valor.",
  "field.model_not_offered": "Deve ser um dos modelos do provedor: {models}.",
};
