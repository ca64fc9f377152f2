import type { Catalogue } from "./en-US.js";
import { ptBRFields } from "./fields/pt-BR.js";

export const ptBR: Catalogue = {
  ...ptBRFields,
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
  "conflict.lti_tool_disabled": "Esta ferramenta LTI está desativada.",
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
  "conflict.endpoint_disabled":
    "Este endpoint de webhook está desativado: ative-o antes de enviar um evento de teste.",
  "conflict.not_inbound": "Só uma automação acionada por webhook de entrada tem token.",
  "conflict.idempotency_mismatch": "Esta Idempotency-Key já foi usada com outra requisição.",
  "conflict.idempotency_in_progress":
    "Uma requisição com esta Idempotency-Key ainda está em andamento. Tente novamente em instantes.",
  "conflict.no_billing_customer":
    "Esta instituição ainda não tem conta de cobrança. Inicie um checkout primeiro.",
  payment_provider_error: "Não foi possível contatar o provedor de pagamentos. Tente novamente mais tarde.",
  billing_not_configured: "A cobrança não está disponível para este plano e moeda no momento.",
  "conflict.bank_in_use": "Um quiz sorteia deste banco de questões ou usa uma de suas questões.",
  "conflict.quiz_exists": "Esta aula já tem um quiz.",
  "conflict.quiz_has_attempts":
    "Este quiz tem tentativas; elas fazem parte do histórico de notas e não podem ser excluídas com ele.",
  "conflict.attempts_exhausted": "Este usuário já usou todas as tentativas que o quiz permite.",
  "conflict.attempt_in_progress": "Este usuário tem uma tentativa deste quiz ainda em andamento.",
  "conflict.attempt_submitted": "Esta tentativa já foi enviada.",
  "conflict.attempt_time_up": "O tempo desta tentativa terminou em {at}; ela não pode mais ser enviada.",
  "conflict.attempt_not_submitted":
    "Esta tentativa ainda está em andamento; ela pode ser corrigida depois de enviada.",
  "conflict.quiz_no_questions": "Este quiz não tem questões ativas para sortear.",
  "conflict.domain_taken": "Este domínio já está registrado.",
  "conflict.tag_name_taken": "Já existe uma tag com este nome.",
  "conflict.tag_in_use":
    "A tag ainda está aplicada a recursos do tipo {resourceType}; remova-a deles antes de tirar {resourceType} de appliesTo.",
  "conflict.course_has_enrollments":
    "Este curso tem matrículas que não foram canceladas. Cancele-as antes ou exclua com force=true.",
  "conflict.already_enrolled": "Este usuário já tem uma matrícula vigente neste curso.",
  "conflict.not_enrolled": "Este usuário não tem matrícula ativa ou concluída no curso desta aula.",
  "conflict.course_has_certificate_template":
    "Outro modelo de certificado já emite certificados para um destes cursos.",
  "conflict.path_has_certificate_template":
    "Outro modelo de certificado já emite certificados para uma destas trilhas de aprendizagem.",
  "conflict.certificate_template_archived":
    "Este modelo de certificado está arquivado e não emite certificados.",
  "conflict.certificate_not_enrolled": "Este usuário não tem matrícula neste curso para certificar.",
  "conflict.certificate_exists": "Esta matrícula já tem um certificado válido. Revogue-o antes.",
  "conflict.certificate_revoked": "Este certificado já está revogado.",
  "conflict.profile_value_taken": "Outro usuário já tem este valor em um campo de perfil único.",
  "conflict.profile_key_taken": "Já existe um campo de perfil com esta chave.",
  "conflict.profile_unique_duplicates":
    "Usuários já compartilham valores deste campo; ele não pode se tornar único.",
  "conflict.profile_field_limit":
    "Uma instituição pode definir no máximo {limit, plural, one {# campo de perfil} other {# campos de perfil}}.",
  "conflict.theme_active": "Este é o tema ativo: ative outro tema primeiro.",
  "conflict.theme_activation_race": "Outro tema foi ativado ao mesmo tempo. Tente novamente.",
  "conflict.media_in_use":
    "{lessons, plural, one {# aula usa este arquivo; retire-o dela} other {# aulas usam este arquivo; retire-o delas}} primeiro, ou exclua com force=true.",
  "conflict.media_not_uploaded": "Nada foi enviado para este arquivo ainda.",
  "conflict.media_already_uploaded": "O conteúdo deste arquivo já foi enviado.",
  "conflict.media_failed": "Este envio falhou ({error}). Comece um novo.",
  "conflict.report_not_ready": "Este relatório não tem arquivo para baixar: a execução está {status}.",
  "conflict.job_ended": "Este job já terminou ({status}); não há o que cancelar.",
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
  "conflict.folder_name_taken": "Já existe uma pasta com este nome aqui.",
  "conflict.folder_not_empty": "Esta pasta não está vazia. Esvazie-a primeiro, ou exclua com recursive=true.",
  "conflict.path_has_enrollments":
    "Esta trilha de aprendizagem tem matrículas. Remova-as antes ou exclua com force=true.",
  video_provider_error:
    "Não foi possível contatar o provedor de vídeo ou ele recusou a solicitação. Tente novamente mais tarde.",
  "conflict.video_provider_in_use": "Aulas ao vivo ainda agendadas usam esta conexão.",
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
  "forbidden.gradebook_teacher":
    "Um professor só pode ver e alterar o diário de notas dos cursos que leciona.",
  "conflict.grade_item_has_grades":
    "Este item de nota tem notas; exclua-o com ?force=true para excluí-las também.",
  "conflict.grade_limit": "Um curso comporta no máximo {limit} destes.",
  "conflict.grade_source_taken": "Outro item de nota deste curso já recebe as notas desta origem.",
  "forbidden.rubric_teacher": "Um professor altera rubricas e avalia trabalhos só nos cursos que leciona.",
  "conflict.rubric_archived": "Esta rubrica está arquivada; ative-a para avaliar com ela.",
  "conflict.assignment_exists": "Esta aula já tem uma tarefa.",
  "conflict.assignment_has_submissions": "Esta tarefa tem entregas; exclua com ?force=true.",
  "conflict.assignment_locked": "Esta tarefa não aceita mais entregas (bloqueada).",
  "conflict.submission_attempts_exhausted": "Este usuário já usou todas as tentativas da tarefa.",
  "forbidden.submission_own": "Um aluno só pode entregar o próprio trabalho.",
  ai_not_configured: "Nenhum provedor de IA está configurado para esta instituição.",
  ai_provider_error:
    "O provedor de IA não pôde ser alcançado ou recusou a chamada. Tente novamente mais tarde.",
  ai_limit_unverifiable:
    "O limite de uso de IA não pode ser verificado agora; a chamada não foi feita. Tente novamente mais tarde.",
  "conflict.prompt_key_taken": "Já existe um prompt com esta chave.",
  "conflict.prompt_active_taken":
    "Outro prompt já está ativo para esta funcionalidade e escopo; arquive-o ou torne-o rascunho antes.",
};
