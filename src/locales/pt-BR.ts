import type { Catalogue } from "./en-US.js";

export const ptBR: Catalogue = {
  validation_failed: "A requisição é inválida. Veja os detalhes de cada campo.",
  invalid_json: "O corpo da requisição não é um JSON válido.",
  unauthorized: "A autenticação está ausente ou é inválida.",
  invalid_credentials: "E-mail ou senha incorretos.",
  subscription_inactive:
    "A assinatura desta instituição está inativa. Atualize o pagamento para restabelecer o acesso.",
  forbidden: "Você não tem permissão para fazer isso.",
  "forbidden.admin_required": "Somente um administrador da instituição pode fazer isso.",
  "forbidden.cross_site":
    "Requisição entre sites recusada: uma requisição autenticada por cookie de sessão deve vir do próprio site da instituição.",
  insufficient_scope: "Esta chave de API não tem o escopo exigido aqui: {scope}.",
  session_required: "Esta operação exige uma sessão autenticada; chaves de API não são aceitas.",
  not_found: "O recurso solicitado não foi encontrado.",
  tenant_not_found:
    'Nenhuma instituição é atendida no host "{host}". Cada instituição tem seu próprio host: <slug>.{baseDomain}{port}, ou um domínio próprio que tenha verificado.',
  "tenant_not_found.no_host":
    "A requisição não tem cabeçalho Host, então não indica nenhuma instituição. Cada instituição tem seu próprio host: <slug>.{baseDomain}, ou um domínio próprio que tenha verificado.",
  conflict: "A requisição entra em conflito com o estado atual do recurso.",
  "conflict.email_taken": "Já existe um usuário com este e-mail nesta instituição.",
  "conflict.last_admin": "A instituição precisa manter pelo menos um administrador ativo.",
  "conflict.class_code_taken": "Já existe uma turma com este código nesta instituição.",
  "conflict.class_full":
    "A turma está cheia: admite no máximo {capacity, plural, one {# membro} other {# membros}}.",
  "conflict.capacity_below_members":
    "A turma já tem {members, plural, one {# membro} other {# membros}}; a capacidade não pode ser menor.",
  "conflict.invite_pending": "Já existe um convite pendente para este e-mail.",
  "conflict.invite_accepted": "Este convite já foi aceito.",
  "conflict.invite_revoked": "Este convite foi revogado.",
  "conflict.invite_expired": "Este convite expirou. Peça um novo.",
  "field.ends_before_starts": "Deve ser posterior a startsAt.",
  "field.future_required": "Deve estar no futuro.",
  "field.max_days_ahead":
    "Deve estar a no máximo {days, plural, one {# dia} other {# dias}} a partir de agora.",
  payload_too_large: "O corpo da requisição é grande demais.",
  headers_too_large: "Os cabeçalhos da requisição são grandes demais.",
  request_timeout: "A requisição não foi recebida a tempo.",
  unsupported_media_type: "Envie o corpo da requisição como application/json.",
  student_limit_reached:
    "O plano {plan} admite {limit, plural, one {# aluno} other {# alunos}} e não tem mais vagas. {upgrade, select, checkout {Um administrador pode mudar a instituição para um plano pago com POST /api/institution/billing/checkout.} portal {Um administrador pode mudar a instituição para um plano maior no portal de cobrança (POST /api/institution/billing/portal).} other {Nenhum plano admite mais alunos; os limites são definidos pelo operador do serviço (PLAN_STUDENT_LIMITS).}}",
  "student_limit_reached.limit": "O plano admite no máximo {limit, plural, one {# aluno} other {# alunos}}.",
  "student_limit_reached.plan": "O plano da instituição é {plan}.",
  rate_limit_exceeded:
    "Muitas requisições. Tente novamente em {retryAfter, plural, one {# segundo} other {# segundos}}.",
  "rate_limit_exceeded.login":
    "Muitas tentativas de login. Tente novamente em {retryAfter, plural, one {# segundo} other {# segundos}}.",
  internal_error: "Ocorreu um erro inesperado. Tente novamente mais tarde.",
  student_limit_unverifiable:
    "Não foi possível verificar o limite de alunos do plano agora. Tente novamente mais tarde.",
  invalid_signature: "O cabeçalho Stripe-Signature está ausente, expirado ou não corresponde ao corpo.",
  "conflict.already_subscribed":
    "Esta instituição já tem uma assinatura. Use o portal de cobrança para mudar o plano ou a forma de pagamento.",
  "conflict.automation_limit":
    "Esta instituição já tem {limit, plural, one {# automação ou endpoint de webhook} other {# automações e endpoints de webhook}}, o máximo permitido. Exclua um antes.",
  "conflict.not_inbound": "Só uma automação acionada por webhook de entrada tem token.",
  "conflict.idempotency_mismatch": "Esta Idempotency-Key já foi usada com outra requisição.",
  "conflict.idempotency_in_progress":
    "Uma requisição com esta Idempotency-Key ainda está em andamento. Tente novamente em instantes.",
  "conflict.no_billing_customer":
    "Esta instituição ainda não tem conta de cobrança. Inicie um checkout primeiro.",
  payment_provider_error: "Não foi possível contatar o provedor de pagamentos. Tente novamente mais tarde.",
  billing_not_configured: "A cobrança não está disponível para este plano e moeda no momento.",
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
  "field.response_shape": "Não é uma resposta válida para uma questão do tipo {type}.",
  "field.answers_need_fixed":
    "Só é possível enviar respostas ao iniciar a tentativa se todas as seções forem fixas; inicie a tentativa e depois envie-a.",
  "conflict.bank_in_use": "Um quiz sorteia deste banco de questões ou usa uma de suas questões.",
  "conflict.quiz_exists": "Esta aula já tem um quiz.",
  "conflict.quiz_has_attempts":
    "Este quiz tem tentativas; elas fazem parte do histórico de notas e não podem ser excluídas com ele.",
  "conflict.attempts_exhausted": "Este usuário já usou todas as tentativas que o quiz permite.",
  "conflict.attempt_in_progress": "Este usuário tem uma tentativa deste quiz ainda em andamento.",
  "conflict.attempt_submitted": "Esta tentativa já foi enviada.",
  "conflict.attempt_not_submitted":
    "Esta tentativa ainda está em andamento; ela pode ser corrigida depois de enviada.",
  "conflict.quiz_no_questions": "Este quiz não tem questões ativas para sortear.",
  "conflict.domain_taken": "Este domínio já está registrado.",
  "conflict.tag_name_taken": "Já existe uma tag com este nome.",
  "conflict.tag_in_use":
    "A tag ainda está aplicada a recursos do tipo {resourceType}; remova-a deles antes de tirar {resourceType} de appliesTo.",
  "field.timezone": "Deve ser um fuso horário IANA, como America/Sao_Paulo.",
  "field.host_name":
    "Deve ser um nome de domínio em minúsculas com pelo menos dois rótulos, como aulas.exemplo.com.br, e não um endereço IP.",
  "field.host_reserved": "Não pode ser o domínio da própria plataforma nem um subdomínio dele.",
  "field.tag_not_applicable": "Esta tag não se aplica a {resourceType}.",
  "field.custom_limits_required": "Obrigatório quando rateTier é custom.",
  "field.custom_limits_forbidden": "Permitido apenas quando rateTier é custom.",
  "field.missing_scope": "Escopo exigido: {scope}.",
  "field.no_changes": "Informe pelo menos um campo para alterar.",
  "conflict.course_has_enrollments":
    "Este curso tem matrículas que não foram canceladas. Cancele-as antes ou exclua com force=true.",
  "field.not_for_lesson_type": "Não disponível para aulas do tipo {type}.",
  "field.url_or_media": "Informe exatamente um entre url e mediaId.",
  "field.https_url": "Deve ser uma URL https.",
  "field.criteria_only": "Só é permitido quando completionCriteria.type é {type}.",
  "field.due_before_unlock": "Não pode ser anterior a unlockAt.",
  "field.order_mismatch": "Deve listar cada item atual exatamente uma vez, e nada mais.",
  "field.same_course_module": "Deve ser um módulo do mesmo curso.",
  "field.prerequisite_invalid": "Deve ser um módulo do mesmo curso posicionado antes deste: {id}.",
  "field.order_breaks_prerequisites": "Esta ordem colocaria um módulo antes de um de seus pré-requisitos.",
  "conflict.already_enrolled": "Este usuário já tem uma matrícula vigente neste curso.",
  "conflict.not_enrolled": "Este usuário não tem matrícula ativa ou concluída no curso desta aula.",
  "field.unknown_user": "Usuário desconhecido: {id}.",
  "field.unknown_user_email": "Nenhum usuário com o e-mail {email}.",
  "field.unknown_course": "Curso desconhecido: {id}.",
  "field.unknown_certificate_template": "Modelo de certificado desconhecido: {id}.",
  "conflict.course_has_certificate_template":
    "Outro modelo de certificado já emite certificados para um destes cursos.",
  "conflict.certificate_template_archived":
    "Este modelo de certificado está arquivado e não emite certificados.",
  "conflict.certificate_not_enrolled": "Este usuário não tem matrícula neste curso para certificar.",
  "conflict.certificate_exists": "Esta matrícula já tem um certificado válido. Revogue-o antes.",
  "conflict.certificate_revoked": "Este certificado já está revogado.",
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
  "conflict.profile_value_taken": "Outro usuário já tem este valor em um campo de perfil único.",
  "conflict.profile_key_taken": "Já existe um campo de perfil com esta chave.",
  "conflict.profile_unique_duplicates":
    "Usuários já compartilham valores deste campo; ele não pode se tornar único.",
  "conflict.profile_field_limit":
    "Uma instituição pode definir no máximo {limit, plural, one {# campo de perfil} other {# campos de perfil}}.",
  "conflict.theme_active": "Este é o tema ativo: ative outro tema primeiro.",
  "conflict.theme_activation_race": "Outro tema foi ativado ao mesmo tempo. Tente novamente.",
  "field.unknown_template_variable":
    "Variável desconhecida '{{'{name}'}}'; este modelo pode usar: {allowed}.",
  "field.unknown_template": "Modelo de e-mail desconhecido: {key}.",
  "field.reset_token_invalid":
    "Este link de redefinição de senha é inválido, expirou ou já foi usado. Peça um novo.",
  "field.no_recipients": "Nenhum destes usuários pode receber e-mail (desconhecido ou sem endereço).",
  "field.custom_template_key":
    "A chave de um modelo próprio é `custom.` seguido de 1 a 64 letras minúsculas, dígitos, `_` ou `-`.",
  "conflict.media_in_use":
    "{lessons, plural, one {# aula usa este arquivo; retire-o dela} other {# aulas usam este arquivo; retire-o delas}} primeiro, ou exclua com force=true.",
  "conflict.media_not_uploaded": "Nada foi enviado para este arquivo ainda.",
  "conflict.media_already_uploaded": "O conteúdo deste arquivo já foi enviado.",
  "conflict.media_failed": "Este envio falhou ({error}). Comece um novo.",
  "conflict.media_not_ready": "Este arquivo não está pronto: {id}.",
  "payload_too_large.storage_quota":
    "Armazenamento insuficiente: o arquivo precisa de {neededMb, number, megabytes} ({needed, plural, one {# byte} many {# de bytes} other {# bytes}}) e o plano tem {availableMb, number, megabytes} ({available, plural, one {# byte} many {# de bytes} other {# bytes}}) livres.",
  "payload_too_large.upload_size":
    "O corpo é maior que o tamanho declarado para este arquivo: {sizeMb, number, megabytes} ({sizeBytes, plural, one {# byte} many {# de bytes} other {# bytes}}).",
  "payload_too_large.max_upload":
    "Um arquivo pode ter no máximo {maxMb, number, megabytes} ({max, plural, one {# byte} many {# de bytes} other {# bytes}}).",
  "forbidden.media_token": "Este link de envio ou download é inválido ou expirou.",
  storage_unavailable:
    'O armazenamento de arquivos "{store}" que guarda este arquivo não está disponível neste servidor. Tente novamente mais tarde.',
  "conflict.media_verifying":
    "Outra requisição está verificando este envio. Consulte o arquivo para ver o resultado.",
  "conflict.media_completion_lost":
    "Outra requisição concluiu este envio enquanto esta o verificava. Consulte o arquivo para ver o resultado.",
  "forbidden.drive_audience": "Você não pode compartilhar arquivos com o público desta pasta ({scope}).",
  "field.unknown_folder": "Pasta do drive desconhecida: {id}.",
  "field.unknown_class": "Turma desconhecida: {id}.",
  "field.unknown_media": "Arquivo desconhecido: {id}.",
  "field.media_kind": "O arquivo {id} não é do tipo {kind}.",
  "conflict.folder_name_taken": "Já existe uma pasta com este nome aqui.",
  "conflict.folder_not_empty": "Esta pasta não está vazia. Esvazie-a primeiro, ou exclua com recursive=true.",
  "conflict.path_has_enrollments":
    "Esta trilha de aprendizagem tem matrículas. Remova-as antes ou exclua com force=true.",
  "field.path_prerequisite": "Deve ser outro curso desta trilha: {id}.",
  "field.path_cycle": "Os pré-requisitos não podem formar um ciclo: {ids}.",
  "field.path_required_course": "Uma trilha precisa de pelo menos um curso obrigatório.",
  "field.folder_cycle": "Uma pasta não pode ser movida para dentro de si mesma ou de uma de suas subpastas.",
  "field.scope_target":
    "Informe courseId com o escopo course, classId com o escopo class, e nenhum dos dois com o escopo institution.",
  "field.scope_on_root_only":
    "Só uma pasta de primeiro nível tem escopo próprio; uma subpasta usa o da pasta-mãe.",
  "field.upload_interrupted": "O envio foi interrompido antes de o corpo chegar inteiro; envie de novo.",
  video_provider_error:
    "Não foi possível contatar o provedor de vídeo ou ele recusou a solicitação. Tente novamente mais tarde.",
  "conflict.video_provider_in_use": "Aulas ao vivo ainda agendadas usam esta conexão.",
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
  "conflict.attendance_not_reported":
    "O provedor de vídeo desta aula não informa presença: registre-a com PUT …/attendance.",
  "session_required.credential_endpoint":
    "Alterar {field} muda para onde as credenciais desta conexão são enviadas: isso exige a sessão autenticada de um administrador; chaves de API não são aceitas.",
  "forbidden.live_class_host": "Somente o anfitrião da aula ou um administrador pode fazer isso.",
  "forbidden.live_class_cohost":
    "Somente o anfitrião da aula, um coanfitrião ou um administrador pode fazer isso.",
  "forbidden.live_class_own":
    "Um professor só agenda aulas que ele mesmo conduz; um administrador ou uma chave de API pode indicar outro anfitrião.",
  "forbidden.calendar_event_owner":
    "Somente quem criou o evento ou um administrador pode alterá-lo ou excluí-lo.",
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
  "forbidden.gradebook_teacher":
    "Um professor só pode ver e alterar o diário de notas dos cursos que leciona.",
  "field.unknown_grade_item": "Nenhum item de nota deste curso tem este id: {id}.",
  "field.unknown_grade_category": "Nenhuma categoria de notas deste curso tem este id: {id}.",
  "field.not_course_student": "Este usuário não é um aluno atual do curso: {id}.",
  "field.score_or_status": "Informe uma nota, uma nota substituta ou um status.",
  "field.score_above_max": "Deve ser no máximo {max} (maxPoints do item × 1,5).",
  "conflict.grade_item_has_grades":
    "Este item de nota tem notas; exclua-o com ?force=true para excluí-las também.",
  "conflict.grade_limit": "Um curso comporta no máximo {limit} destes.",
  "conflict.grade_source_taken": "Outro item de nota deste curso já recebe as notas desta origem.",
  "field.lesson_not_assignment": "Deve ser uma aula do tipo assignment.",
  "field.lock_before_due": "Não pode ser anterior à data de entrega.",
  "field.submission_empty": "Informe bodyText, attachmentMediaIds ou url.",
  "field.kind_not_allowed": "Esta tarefa não aceita entregas do tipo {kind}.",
  "conflict.assignment_exists": "Esta aula já tem uma tarefa.",
  "conflict.assignment_has_submissions": "Esta tarefa tem entregas; exclua com ?force=true.",
  "conflict.assignment_locked": "Esta tarefa não aceita mais entregas (bloqueada).",
  "conflict.submission_attempts_exhausted": "Este usuário já usou todas as tentativas da tarefa.",
  "forbidden.submission_own": "Um aluno só pode entregar o próprio trabalho.",
};
