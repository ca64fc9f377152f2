import type { Catalogue } from "./en-US.js";
import { esESFields } from "./fields/es-ES.js";

export const esES: Catalogue = {
  ...esESFields,
  validation_failed: "La solicitud no es válida. Consulta los detalles de cada campo.",
  invalid_json: "El cuerpo de la solicitud no es un JSON válido.",
  unauthorized: "La autenticación falta o no es válida.",
  invalid_credentials: "El correo electrónico o la contraseña son incorrectos.",
  subscription_inactive:
    "La suscripción de esta institución está inactiva. Actualiza la facturación para recuperar el acceso.",
  forbidden: "No tienes permiso para hacer esto.",
  "forbidden.admin_required": "Solo un administrador de la institución puede hacer esto.",
  "forbidden.cross_site":
    "Solicitud entre sitios rechazada: una solicitud autenticada con la cookie de sesión debe venir del propio sitio de la institución.",
  insufficient_scope: "Esta clave de API no tiene el alcance necesario aquí: {scope}.",
  session_required: "Esta operación requiere una sesión iniciada; no se aceptan claves de API.",
  not_found: "No se encontró el recurso solicitado.",
  tenant_not_found:
    'No hay ninguna institución en el host "{host}". Cada institución tiene su propio host: <slug>.{baseDomain}{port}, o un dominio propio que haya verificado.',
  "tenant_not_found.no_host":
    "La solicitud no tiene cabecera Host, así que no indica ninguna institución. Cada institución tiene su propio host: <slug>.{baseDomain}, o un dominio propio que haya verificado.",
  conflict: "La solicitud entra en conflicto con el estado actual del recurso.",
  "conflict.lti_tool_disabled": "Esta herramienta LTI está desactivada.",
  "conflict.email_taken": "Ya existe un usuario con este correo electrónico en esta institución.",
  "conflict.last_admin": "La institución debe conservar al menos un administrador activo.",
  "conflict.class_code_taken": "Ya existe un grupo de clase con este código en esta institución.",
  "conflict.class_full":
    "El grupo de clase está completo: admite como máximo {capacity, plural, one {# miembro} other {# miembros}}.",
  "conflict.capacity_below_members":
    "El grupo de clase ya tiene {members, plural, one {# miembro} other {# miembros}}; la capacidad no puede ser menor.",
  "conflict.invite_pending": "Ya existe una invitación pendiente para este correo electrónico.",
  "conflict.invite_accepted": "Esta invitación ya ha sido aceptada.",
  "conflict.invite_revoked": "Esta invitación ha sido revocada.",
  "conflict.invite_expired": "Esta invitación ha caducado. Solicita una nueva.",
  payload_too_large: "El cuerpo de la solicitud es demasiado grande.",
  headers_too_large: "Las cabeceras de la solicitud son demasiado grandes.",
  request_timeout: "La solicitud no se recibió a tiempo.",
  unsupported_media_type: "Envía el cuerpo de la solicitud como application/json.",
  student_limit_reached:
    "El plan {plan} admite {limit, plural, one {# estudiante} other {# estudiantes}} y no le quedan plazas. {upgrade, select, checkout {Un administrador puede pasar la institución a un plan de pago con POST /api/institution/billing/checkout.} portal {Un administrador puede pasar la institución a un plan mayor en el portal de facturación (POST /api/institution/billing/portal).} other {Ningún plan admite más estudiantes; los límites los fija el operador del servicio (PLAN_STUDENT_LIMITS).}}",
  "student_limit_reached.limit":
    "El plan admite como máximo {limit, plural, one {# estudiante} other {# estudiantes}}.",
  "student_limit_reached.plan": "El plan de la institución es {plan}.",
  rate_limit_exceeded:
    "Demasiadas solicitudes. Vuelve a intentarlo dentro de {retryAfter, plural, one {# segundo} other {# segundos}}.",
  "rate_limit_exceeded.login":
    "Demasiados intentos de inicio de sesión. Vuelve a intentarlo dentro de {retryAfter, plural, one {# segundo} other {# segundos}}.",
  internal_error: "Se produjo un error inesperado. Vuelve a intentarlo más tarde.",
  student_limit_unverifiable:
    "No se puede comprobar ahora el límite de estudiantes del plan. Vuelve a intentarlo más tarde.",
  invalid_signature: "La cabecera Stripe-Signature falta, ha caducado o no coincide con el cuerpo.",
  "conflict.already_subscribed":
    "Esta institución ya tiene una suscripción. Use el portal de facturación para cambiar el plan o el método de pago.",
  "conflict.automation_limit":
    "Esta institución ya tiene {limit, plural, one {# automatización o endpoint de webhook} other {# automatizaciones y endpoints de webhook}}, el máximo permitido. Elimine uno antes.",
  "conflict.endpoint_disabled":
    "Este endpoint de webhook está desactivado: actívelo antes de enviarle un evento de prueba.",
  "conflict.not_inbound": "Solo una automatización activada por un webhook entrante tiene token.",
  "conflict.idempotency_mismatch": "Esta Idempotency-Key ya se usó con otra solicitud.",
  "conflict.idempotency_in_progress":
    "Una solicitud con esta Idempotency-Key aún está en curso. Inténtelo de nuevo en breve.",
  "conflict.no_billing_customer":
    "Esta institución aún no tiene cuenta de facturación. Inicie primero un pago.",
  payment_provider_error: "No se pudo contactar con el proveedor de pagos. Inténtelo de nuevo más tarde.",
  billing_not_configured: "La facturación no está disponible para este plan y moneda en este momento.",
  "conflict.bank_in_use": "Un cuestionario extrae preguntas de este banco o usa una de sus preguntas.",
  "conflict.quiz_exists": "Esta lección ya tiene un cuestionario.",
  "conflict.quiz_has_attempts":
    "Este cuestionario tiene intentos; forman parte del historial de calificaciones y no se pueden eliminar con él.",
  "conflict.attempts_exhausted": "Este usuario ya usó todos los intentos que permite el cuestionario.",
  "conflict.attempt_in_progress": "Este usuario tiene un intento de este cuestionario aún en curso.",
  "conflict.attempt_submitted": "Este intento ya fue enviado.",
  "conflict.attempt_time_up": "El tiempo de este intento se agotó el {at}; ya no se puede enviar.",
  "conflict.attempt_not_submitted": "Este intento aún está en curso; se puede calificar una vez enviado.",
  "conflict.quiz_no_questions": "Este cuestionario no tiene preguntas activas para extraer.",
  "conflict.domain_taken": "Este dominio ya está registrado.",
  "conflict.tag_name_taken": "Ya existe una etiqueta con este nombre.",
  "conflict.tag_in_use":
    "La etiqueta sigue asignada a recursos de tipo {resourceType}; quítala de ellos antes de retirar {resourceType} de appliesTo.",
  "conflict.course_has_enrollments":
    "Este curso tiene matrículas que no se han dado de baja. Dalas de baja antes o elimina con force=true.",
  "conflict.already_enrolled": "Este usuario ya tiene una matrícula vigente en este curso.",
  "conflict.not_enrolled":
    "Este usuario no tiene una matrícula activa o completada en el curso de esta lección.",
  "conflict.course_has_certificate_template":
    "Otra plantilla de certificado ya emite certificados para uno de estos cursos.",
  "conflict.path_has_certificate_template":
    "Otra plantilla de certificado ya emite certificados para una de estas rutas de aprendizaje.",
  "conflict.certificate_template_archived":
    "Esta plantilla de certificado está archivada y no emite certificados.",
  "conflict.certificate_not_enrolled": "Este usuario no tiene matrícula en este curso que certificar.",
  "conflict.certificate_exists": "Esta matrícula ya tiene un certificado válido. Revócalo antes.",
  "conflict.certificate_revoked": "Este certificado ya está revocado.",
  "conflict.profile_value_taken": "Otro usuario ya tiene este valor en un campo de perfil único.",
  "conflict.profile_key_taken": "Ya existe un campo de perfil con esta clave.",
  "conflict.profile_unique_duplicates":
    "Hay usuarios que ya comparten valores de este campo; no puede volverse único.",
  "conflict.profile_field_limit":
    "Una institución puede definir como máximo {limit, plural, one {# campo de perfil} other {# campos de perfil}}.",
  "conflict.theme_active": "Este es el tema activo: active otro tema primero.",
  "conflict.theme_activation_race": "Se activó otro tema al mismo tiempo. Inténtelo de nuevo.",
  "conflict.media_in_use":
    "{lessons, plural, one {# lección usa este archivo; quítalo de ella} other {# lecciones usan este archivo; quítalo de ellas}} primero, o elimínalo con force=true.",
  "conflict.media_not_uploaded": "Todavía no se ha subido nada para este archivo.",
  "conflict.media_already_uploaded": "El contenido de este archivo ya se ha subido.",
  "conflict.media_failed": "Esta subida falló ({error}). Empieza una nueva.",
  "conflict.report_not_ready": "Este informe no tiene archivo para descargar: su ejecución está {status}.",
  "conflict.job_ended": "Este trabajo ya terminó ({status}); no hay nada que cancelar.",
  "conflict.media_not_ready": "Este archivo no está listo: {id}.",
  "payload_too_large.storage_quota":
    "Almacenamiento insuficiente: el archivo necesita {neededMb, number, megabytes} ({needed, plural, one {# byte} many {# de bytes} other {# bytes}}) y al plan le quedan {availableMb, number, megabytes} ({available, plural, one {# byte} many {# de bytes} other {# bytes}}).",
  "payload_too_large.upload_size":
    "El cuerpo es mayor que el tamaño declarado para este archivo: {sizeMb, number, megabytes} ({sizeBytes, plural, one {# byte} many {# de bytes} other {# bytes}}).",
  "payload_too_large.max_upload":
    "Un archivo puede tener como máximo {maxMb, number, megabytes} ({max, plural, one {# byte} many {# de bytes} other {# bytes}}).",
  "forbidden.media_token": "Este enlace de subida o descarga no es válido o ha caducado.",
  storage_unavailable:
    'El almacén de archivos "{store}" que guarda este archivo no está disponible en este servidor. Inténtelo de nuevo más tarde.',
  "conflict.media_verifying":
    "Otra solicitud está verificando esta subida. Consulte el archivo para ver el resultado.",
  "conflict.media_completion_lost":
    "Otra solicitud resolvió esta subida mientras esta la verificaba. Consulte el archivo para ver el resultado.",
  "forbidden.drive_audience": "No puede compartir archivos con el público de esta carpeta ({scope}).",
  "conflict.folder_name_taken": "Ya existe una carpeta con este nombre aquí.",
  "conflict.folder_not_empty": "Esta carpeta no está vacía. Vacíala primero, o elimínala con recursive=true.",
  "conflict.path_has_enrollments":
    "Esta ruta de aprendizaje tiene matrículas. Elimínalas antes o elimina con force=true.",
  video_provider_error:
    "No se pudo contactar con el proveedor de vídeo o rechazó la solicitud. Inténtelo de nuevo más tarde.",
  "conflict.video_provider_in_use": "Clases en vivo aún programadas usan esta conexión.",
  "conflict.attendance_not_reported":
    "Su proveedor de vídeo no informa la asistencia: regístrela con PUT …/attendance.",
  "session_required.credential_endpoint":
    "Cambiar {field} cambia adónde se envían las credenciales de esta conexión: requiere la sesión iniciada de un administrador; no se aceptan claves de API.",
  "forbidden.live_class_host": "Solo el anfitrión de la clase o un administrador puede hacer esto.",
  "forbidden.live_class_cohost":
    "Solo el anfitrión de la clase, un coanfitrión o un administrador puede hacer esto.",
  "forbidden.live_class_own":
    "Un docente solo programa las clases que presenta; un administrador o una clave de API puede nombrar a otro anfitrión.",
  "forbidden.calendar_event_owner":
    "Solo quien creó el evento o un administrador puede modificarlo o eliminarlo.",
  "forbidden.gradebook_teacher":
    "Un profesor solo puede ver y cambiar el libro de calificaciones de los cursos que imparte.",
  "conflict.grade_item_has_grades":
    "Este elemento tiene calificaciones; elimínalo con ?force=true para eliminarlas también.",
  "conflict.grade_limit": "Un curso admite como máximo {limit} de estos.",
  "conflict.grade_source_taken":
    "Otro elemento de calificación de este curso ya toma sus calificaciones de este origen.",
  "forbidden.rubric_teacher": "Un profesor cambia rúbricas y evalúa trabajos solo en los cursos que imparte.",
  "conflict.rubric_archived": "Esta rúbrica está archivada; actívela para evaluar con ella.",
  "conflict.assignment_exists": "Esta lección ya tiene una tarea.",
  "conflict.assignment_has_submissions": "Esta tarea tiene entregas; elimínala con ?force=true.",
  "conflict.assignment_locked": "Esta tarea ya no acepta entregas (bloqueada).",
  "conflict.submission_attempts_exhausted": "Este usuario ya usó todos los intentos de la tarea.",
  "forbidden.submission_own": "Un estudiante solo puede entregar su propio trabajo.",
  ai_not_configured: "No hay ningún proveedor de IA configurado para esta institución.",
  ai_provider_error:
    "No se pudo contactar con el proveedor de IA o este rechazó la llamada. Inténtelo más tarde.",
  ai_limit_unverifiable:
    "No se puede comprobar ahora el límite de uso de IA; la llamada no se realizó. Inténtelo más tarde.",
  "conflict.prompt_key_taken": "Ya existe un prompt con esta clave.",
  "conflict.prompt_active_taken":
    "Otro prompt ya está activo para esta función y ámbito; archívelo o páselo a borrador primero.",
};
