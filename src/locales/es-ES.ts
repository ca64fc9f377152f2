import type { Catalogue } from "./en-US.js";

export const esES: Catalogue = {
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
  "field.ends_before_starts": "Debe ser posterior a startsAt.",
  "field.future_required": "Debe estar en el futuro.",
  "field.max_days_ahead": "Debe estar como máximo a {days, plural, one {# día} other {# días}} de ahora.",
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
  "conflict.not_inbound": "Solo una automatización activada por un webhook entrante tiene token.",
  "conflict.idempotency_mismatch": "Esta Idempotency-Key ya se usó con otra solicitud.",
  "conflict.idempotency_in_progress":
    "Una solicitud con esta Idempotency-Key aún está en curso. Inténtelo de nuevo en breve.",
  "conflict.no_billing_customer":
    "Esta institución aún no tiene cuenta de facturación. Inicie primero un pago.",
  payment_provider_error: "No se pudo contactar con el proveedor de pagos. Inténtelo de nuevo más tarde.",
  billing_not_configured: "La facturación no está disponible para este plan y moneda en este momento.",
  "field.header_reserved": "Esta cabecera la define la plataforma o el propio HTTP y no se puede configurar.",
  "field.url_forbidden":
    "Debe ser una URL http(s) de un host público, sin plantillas ni credenciales. Una dirección de su propia máquina o red (un receptor durante el desarrollo) solo se admite cuando el operador del servidor incluye su rango en OUTBOUND_ALLOW_CIDRS, por ejemplo 127.0.0.1/32.",
  "field.required": "Este campo es obligatorio.",
  "field.unknown": "Este campo no está permitido.",
  "field.unknown_cursor":
    "No se conserva ningún evento con este id para esta institución (los eventos se conservan 30 días); vuelva a empezar con `since`.",
  "field.type": "Debe ser de tipo {type}.",
  "field.format": "Debe ser un {format} válido.",
  "field.min_length": "Debe tener al menos {limit, plural, one {# carácter} other {# caracteres}}.",
  "field.max_length": "Debe tener como máximo {limit, plural, one {# carácter} other {# caracteres}}.",
  "field.minimum": "Debe ser mayor o igual que {limit, number, exact}.",
  "field.maximum": "Debe ser menor o igual que {limit, number, exact}.",
  "field.exclusive_minimum": "Debe ser mayor que {limit, number, exact}.",
  "field.exclusive_maximum": "Debe ser menor que {limit, number, exact}.",
  "field.enum": "Debe ser uno de estos valores: {values}.",
  "field.pattern": "Tiene un formato no válido.",
  "field.min_items": "Debe contener al menos {limit, plural, one {# elemento} other {# elementos}}.",
  "field.max_items": "Debe contener como máximo {limit, plural, one {# elemento} other {# elementos}}.",
  "field.unique_items": "No puede contener elementos repetidos.",
  "field.invalid": "No es válido.",
  "field.unstorable": "No debe contener el carácter U+0000 ni un sustituto UTF-16 sin pareja.",
  "field.max_depth":
    "No debe anidar arrays y objetos en más de {limit, plural, one {# nivel} other {# niveles}}.",
  "field.host_header": "Debe ser un nombre de host o una dirección IP, opcionalmente seguido de :puerto.",
  "field.unknown_scope": "Alcance desconocido: {scope}.",
  "field.unknown_class_group": "Grupo de clase desconocido: {id}.",
  "field.unknown_lesson": "Lección desconocida: {id}.",
  "field.unknown_question": "Pregunta desconocida: {id}.",
  "field.unknown_question_bank": "Banco de preguntas desconocido: {id}.",
  "field.lesson_not_quiz": "Debe ser una lección de tipo quiz.",
  "field.not_for_type": "No se permite cuando el tipo es {type}.",
  "field.correct_options_one": "Exactamente una opción debe ser correcta.",
  "field.correct_options_some": "Al menos una opción debe ser correcta.",
  "field.duplicate": "Repite una entrada anterior: {value}.",
  "field.numeric_form": "Indique value (con tolerance opcional) o min y max.",
  "field.range_order": "No puede ser mayor que max.",
  "field.not_in_attempt": "Esta pregunta no forma parte del intento.",
  "field.response_shape": "No es una respuesta válida para una pregunta de tipo {type}.",
  "field.answers_need_fixed":
    "Solo se pueden enviar respuestas al iniciar el intento si todas las secciones son fijas; inicie el intento y luego envíelo.",
  "conflict.bank_in_use": "Un cuestionario extrae preguntas de este banco o usa una de sus preguntas.",
  "conflict.quiz_exists": "Esta lección ya tiene un cuestionario.",
  "conflict.quiz_has_attempts":
    "Este cuestionario tiene intentos; forman parte del historial de calificaciones y no se pueden eliminar con él.",
  "conflict.attempts_exhausted": "Este usuario ya usó todos los intentos que permite el cuestionario.",
  "conflict.attempt_in_progress": "Este usuario tiene un intento de este cuestionario aún en curso.",
  "conflict.attempt_submitted": "Este intento ya fue enviado.",
  "conflict.attempt_not_submitted": "Este intento aún está en curso; se puede calificar una vez enviado.",
  "conflict.quiz_no_questions": "Este cuestionario no tiene preguntas activas para extraer.",
  "conflict.domain_taken": "Este dominio ya está registrado.",
  "conflict.tag_name_taken": "Ya existe una etiqueta con este nombre.",
  "conflict.tag_in_use":
    "La etiqueta sigue asignada a recursos de tipo {resourceType}; quítala de ellos antes de retirar {resourceType} de appliesTo.",
  "field.timezone": "Debe ser una zona horaria IANA, como America/Sao_Paulo.",
  "field.host_name":
    "Debe ser un nombre de dominio en minúsculas con al menos dos etiquetas, como aulas.ejemplo.es, y no una dirección IP.",
  "field.host_reserved": "No puede ser el dominio de la propia plataforma ni uno de sus subdominios.",
  "field.tag_not_applicable": "Esta etiqueta no se aplica a {resourceType}.",
  "field.custom_limits_required": "Obligatorio cuando rateTier es custom.",
  "field.custom_limits_forbidden": "Solo se permite cuando rateTier es custom.",
  "field.missing_scope": "Alcance necesario: {scope}.",
  "field.no_changes": "Indica al menos un campo que modificar.",
  "conflict.course_has_enrollments":
    "Este curso tiene matrículas que no se han dado de baja. Dalas de baja antes o elimina con force=true.",
  "field.not_for_lesson_type": "No disponible para lecciones de tipo {type}.",
  "field.url_or_media": "Indica exactamente uno entre url y mediaId.",
  "field.https_url": "Debe ser una URL https.",
  "field.criteria_only": "Solo se permite cuando completionCriteria.type es {type}.",
  "field.due_before_unlock": "No puede ser anterior a unlockAt.",
  "field.order_mismatch": "Debe listar cada elemento actual exactamente una vez, y nada más.",
  "field.same_course_module": "Debe ser un módulo del mismo curso.",
  "field.prerequisite_invalid": "Debe ser un módulo del mismo curso situado antes de este: {id}.",
  "field.order_breaks_prerequisites":
    "Este orden colocaría un módulo antes de uno de sus requisitos previos.",
  "conflict.already_enrolled": "Este usuario ya tiene una matrícula vigente en este curso.",
  "conflict.not_enrolled":
    "Este usuario no tiene una matrícula activa o completada en el curso de esta lección.",
  "field.unknown_user": "Usuario desconocido: {id}.",
  "field.unknown_user_email": "Ningún usuario con el correo {email}.",
  "field.unknown_course": "Curso desconocido: {id}.",
  "field.unknown_certificate_template": "Plantilla de certificado desconocida: {id}.",
  "conflict.course_has_certificate_template":
    "Otra plantilla de certificado ya emite certificados para uno de estos cursos.",
  "conflict.certificate_template_archived":
    "Esta plantilla de certificado está archivada y no emite certificados.",
  "conflict.certificate_not_enrolled": "Este usuario no tiene matrícula en este curso que certificar.",
  "conflict.certificate_exists": "Esta matrícula ya tiene un certificado válido. Revócalo antes.",
  "conflict.certificate_revoked": "Este certificado ya está revocado.",
  "field.after_starts_at": "Debe ser posterior al inicio de la matrícula ({startsAt}).",
  "field.user_or_email": "Indica exactamente uno entre userId y email.",
  "field.grading_scale_order": "Debe ser menor que el minPercent de la franja anterior.",
  "field.grading_scale_floor": "La última franja debe empezar en 0.",
  "field.email_domain_not_allowed": "La institución solo admite direcciones de correo en: {domains}.",
  "field.profile_unknown": "Campo de perfil desconocido: {key}.",
  "field.profile_option": "Debe ser una de las opciones del campo: {values}.",
  "field.profile_date": "Debe ser una fecha con el formato AAAA-MM-DD.",
  "field.profile_options_for_type":
    "Las opciones son obligatorias en campos select y multiselect, y no se permiten en otros tipos.",
  "field.profile_validation_for_type": "No es una regla de validación de campos {type}.",
  "field.regex": "Debe ser una expresión regular válida.",
  "field.regex_backtracking":
    "No se admiten referencias hacia atrás ni aserciones (lookahead, lookbehind): los patrones se ejecutan en un motor de tiempo lineal.",
  "field.regex_unsupported":
    "Usa una sintaxis que el motor de patrones de tiempo lineal no admite: {syntax}.",
  "field.html_too_complex":
    "Tardó demasiado en sanearse: simplifique el HTML (menos elementos anidados) o divídalo.",
  "field.regex_too_complex":
    "Es demasiado complejo para el valor más largo que admite este campo: use repeticiones más pequeñas o un maxLength menor.",
  "conflict.profile_value_taken": "Otro usuario ya tiene este valor en un campo de perfil único.",
  "conflict.profile_key_taken": "Ya existe un campo de perfil con esta clave.",
  "conflict.profile_unique_duplicates":
    "Hay usuarios que ya comparten valores de este campo; no puede volverse único.",
  "conflict.profile_field_limit":
    "Una institución puede definir como máximo {limit, plural, one {# campo de perfil} other {# campos de perfil}}.",
  "conflict.theme_active": "Este es el tema activo: active otro tema primero.",
  "conflict.theme_activation_race": "Se activó otro tema al mismo tiempo. Inténtelo de nuevo.",
  "field.unknown_template_variable":
    "Variable desconocida '{{'{name}'}}'; esta plantilla puede usar: {allowed}.",
  "field.unknown_template": "Plantilla de correo desconocida: {key}.",
  "field.reset_token_invalid":
    "Este enlace para restablecer la contraseña no es válido, ha caducado o ya se usó. Pide uno nuevo.",
  "field.no_recipients": "Ninguno de estos usuarios puede recibir correo (desconocido o sin dirección).",
  "field.custom_template_key":
    "La clave de una plantilla propia es `custom.` seguido de 1 a 64 letras minúsculas, dígitos, `_` o `-`.",
  "conflict.media_in_use":
    "{lessons, plural, one {# lección usa este archivo; quítalo de ella} other {# lecciones usan este archivo; quítalo de ellas}} primero, o elimínalo con force=true.",
  "conflict.media_not_uploaded": "Todavía no se ha subido nada para este archivo.",
  "conflict.media_already_uploaded": "El contenido de este archivo ya se ha subido.",
  "conflict.media_failed": "Esta subida falló ({error}). Empieza una nueva.",
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
  "field.unknown_folder": "Carpeta del drive desconocida: {id}.",
  "field.unknown_class": "Clase desconocida: {id}.",
  "field.unknown_media": "Archivo desconocido: {id}.",
  "field.media_kind": "El archivo {id} no es de tipo {kind}.",
  "conflict.folder_name_taken": "Ya existe una carpeta con este nombre aquí.",
  "conflict.folder_not_empty": "Esta carpeta no está vacía. Vacíala primero, o elimínala con recursive=true.",
  "conflict.path_has_enrollments":
    "Esta ruta de aprendizaje tiene matrículas. Elimínalas antes o elimina con force=true.",
  "field.path_prerequisite": "Debe ser otro curso de esta ruta: {id}.",
  "field.path_cycle": "Los prerrequisitos no deben formar un ciclo: {ids}.",
  "field.path_required_course": "Una ruta necesita al menos un curso obligatorio.",
  "field.folder_cycle": "Una carpeta no se puede mover dentro de sí misma ni de una de sus subcarpetas.",
  "field.scope_target":
    "Indica courseId con el ámbito course, classId con el ámbito class, y ninguno con el ámbito institution.",
  "field.scope_on_root_only":
    "Solo una carpeta de primer nivel tiene ámbito propio; una subcarpeta toma el de su carpeta madre.",
  "field.upload_interrupted":
    "La subida se interrumpió antes de que llegara el cuerpo completo; envíalo de nuevo.",
  video_provider_error:
    "No se pudo contactar con el proveedor de vídeo o rechazó la solicitud. Inténtelo de nuevo más tarde.",
  "conflict.video_provider_in_use": "Clases en vivo aún programadas usan esta conexión.",
  "field.rrule_invalid": "Debe ser una regla de recurrencia RFC 5545 (RRULE) válida, sin DTSTART.",
  "field.too_many_occurrences":
    "La regla genera más de {limit, plural, one {# ocurrencia} other {# ocurrencias}}; indique COUNT o UNTIL.",
  "field.rrule_too_frequent":
    "Se repite como máximo una vez al día: FREQ es DAILY, WEEKLY, MONTHLY o YEARLY, a la hora del inicio (sin BYHOUR, BYMINUTE ni BYSECOND).",
  "field.rrule_never":
    "La regla no tiene ninguna ocurrencia en {years, plural, one {el # año siguiente} other {los # años siguientes}} al inicio.",
  "field.rrule_too_long":
    "La regla debe terminar (COUNT o UNTIL) dentro de {years, plural, one {el # año siguiente} other {los # años siguientes}} al inicio.",
  "field.window_too_long":
    "El intervalo de `from` a `to` no puede superar {days, plural, one {# día} other {# días}}.",
  "field.audience_required": "Indique un curso, una clase o al menos un invitado.",
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
  "field.video_provider_unusable":
    "Ningún proveedor de vídeo conectado para clases en directo tiene este id.",
  "field.not_active_staff": "Debe ser un profesor o administrador activo de esta institución.",
  "field.lesson_not_in_course":
    "Ninguna lección de esta institución tiene este id, o pertenece a un curso distinto de courseId.",
  "field.unknown_occurrence": "Esta clase en directo no tiene ninguna sesión con este id.",
  "field.css_unreadable": "No es un CSS legible: revisa las llaves, las comillas y los comentarios.",
  "field.profile_value_taken":
    "Otro usuario ya tiene este valor, y los valores de este campo deben ser únicos.",
  "field.profile_values_shared":
    "Algunos usuarios comparten un valor de este campo; no puede ser único hasta que los valores difieran.",
  "field.profile_filter_value":
    "No es un valor que este campo de perfil admita (consulta el tipo y las opciones del campo).",
  "field.date_or_date_time":
    "Debe ser una fecha (AAAA-MM-DD) o una fecha y hora con su desfase (RFC 3339, p. ej. 2026-03-01T09:00:00Z).",
  "forbidden.gradebook_teacher":
    "Un profesor solo puede ver y cambiar el libro de calificaciones de los cursos que imparte.",
  "field.unknown_grade_item": "Ningún elemento de calificación de este curso tiene este id: {id}.",
  "field.unknown_grade_category": "Ninguna categoría de calificaciones de este curso tiene este id: {id}.",
  "field.not_course_student": "Este usuario no es un estudiante actual del curso: {id}.",
  "field.score_or_status": "Indica una puntuación, una puntuación sustituta o un estado.",
  "field.score_above_max": "Debe ser como máximo {max} (maxPoints del elemento × 1,5).",
  "conflict.grade_item_has_grades":
    "Este elemento tiene calificaciones; elimínalo con ?force=true para eliminarlas también.",
  "conflict.grade_limit": "Un curso admite como máximo {limit} de estos.",
  "conflict.grade_source_taken":
    "Otro elemento de calificación de este curso ya toma sus calificaciones de este origen.",
  "field.lesson_not_assignment": "Debe ser una lección de tipo assignment.",
  "field.lock_before_due": "No puede ser anterior a la fecha de entrega.",
  "field.submission_empty": "Indica bodyText, attachmentMediaIds o url.",
  "field.kind_not_allowed": "Esta tarea no acepta entregas de tipo {kind}.",
  "conflict.assignment_exists": "Esta lección ya tiene una tarea.",
  "conflict.assignment_has_submissions": "Esta tarea tiene entregas; elimínala con ?force=true.",
  "conflict.assignment_locked": "Esta tarea ya no acepta entregas (bloqueada).",
  "conflict.submission_attempts_exhausted": "Este usuario ya usó todos los intentos de la tarea.",
  "forbidden.submission_own": "Un estudiante solo puede entregar su propio trabajo.",
};
