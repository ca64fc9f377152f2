import type { FieldMessageKey } from "./en-US.js";

export const esESFields: Readonly<Record<FieldMessageKey, string>> = {
  "field.ends_before_starts": "Debe ser posterior a startsAt.",
  "field.future_required": "Debe estar en el futuro.",
  "field.max_days_ahead": "Debe estar como máximo a {days, plural, one {# día} other {# días}} de ahora.",
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
  "field.over_time_limit":
    "Supera el tiempo que permite el intento ({limit} segundos, más {grace} segundos de margen).",
  "field.response_shape": "No es una respuesta válida para una pregunta de tipo {type}.",
  "field.answers_need_fixed":
    "Solo se pueden enviar respuestas al iniciar el intento si todas las secciones son fijas; inicie el intento y luego envíelo.",
  "field.timezone": "Debe ser una zona horaria IANA, como America/Sao_Paulo.",
  "field.host_name":
    "Debe ser un nombre de dominio en minúsculas con al menos dos etiquetas, como aulas.ejemplo.es, y no una dirección IP.",
  "field.host_reserved": "No puede ser el dominio de la propia plataforma ni uno de sus subdominios.",
  "field.tag_not_applicable": "Esta etiqueta no se aplica a {resourceType}.",
  "field.custom_limits_required": "Obligatorio cuando rateTier es custom.",
  "field.custom_limits_forbidden": "Solo se permite cuando rateTier es custom.",
  "field.missing_scope": "Alcance necesario: {scope}.",
  "field.no_changes": "Indica al menos un campo que modificar.",
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
  "field.unknown_user": "Usuario desconocido: {id}.",
  "field.unknown_user_email": "Ningún usuario con el correo {email}.",
  "field.unknown_live_class": "Clase en vivo desconocida: {id}.",
  "field.unknown_course": "Curso desconocido: {id}.",
  "field.unknown_certificate_template": "Plantilla de certificado desconocida: {id}.",
  "field.unknown_learning_path": "Ruta de aprendizaje desconocida: {id}.",
  "field.one_of_course_or_path": "Indica courseId o learningPathId, no ambos.",
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
  "field.unknown_template_variable":
    "Variable desconocida '{{'{name}'}}'; esta plantilla puede usar: {allowed}.",
  "field.unknown_template": "Plantilla de correo desconocida: {key}.",
  "field.reset_token_invalid":
    "Este enlace para restablecer la contraseña no es válido, ha caducado o ya se usó. Pide uno nuevo.",
  "field.no_recipients": "Ninguno de estos usuarios puede recibir correo (desconocido o sin dirección).",
  "field.custom_template_key":
    "La clave de una plantilla propia es `custom.` seguido de 1 a 64 letras minúsculas, dígitos, `_` o `-`.",
  "field.unknown_folder": "Carpeta del drive desconocida: {id}.",
  "field.unknown_class": "Clase desconocida: {id}.",
  "field.unknown_media": "Archivo desconocido: {id}.",
  "field.media_kind": "El archivo {id} no es de tipo {kind}.",
  "field.media_not_indexable":
    "El archivo {id} ({contentType}) no tiene texto que indexar: solo los PDF y los archivos de texto plano lo tienen.",
  "field.media_too_large": "El archivo {id} supera los {max} bytes que puede tener un documento.",
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
  "field.unknown_grade_item": "Ningún elemento de calificación de este curso tiene este id: {id}.",
  "field.unknown_grade_category": "Ninguna categoría de calificaciones de este curso tiene este id: {id}.",
  "field.not_course_student": "Este usuario no es un estudiante actual del curso: {id}.",
  "field.score_or_status": "Indica una puntuación, una puntuación sustituta o un estado.",
  "field.score_above_max": "Debe ser como máximo {max} (maxPoints del elemento × 1,5).",
  "field.unknown_rubric": "Ninguna rúbrica de la institución o de este curso tiene este id: {id}.",
  "field.unknown_criterion": "La rúbrica no tiene ningún criterio con este id: {id}.",
  "field.unknown_rating": "El criterio no tiene ningún nivel con este id: {id}.",
  "field.criterion_unscored": "Cada criterio necesita una puntuación; este no la tiene: {id}.",
  "field.rubric_points": "Debe estar entre {min} y {max} para este criterio y nivel.",
  "field.unknown_target": "Ningún intento de cuestionario de esta institución tiene este id: {id}.",
  "field.rubric_other_course": "La rúbrica pertenece a otro curso que el del trabajo evaluado.",
  "field.csv_columns": "El CSV necesita una línea de encabezado con las columnas: {columns}.",
  "field.lesson_not_assignment": "Debe ser una lección de tipo assignment.",
  "field.lock_before_due": "No puede ser anterior a la fecha de entrega.",
  "field.submission_empty": "Indica bodyText, attachmentMediaIds o url.",
  "field.kind_not_allowed": "Esta tarea no acepta entregas de tipo {kind}.",
  "field.template_undeclared": "La plantilla usa la variable {name}, que variables no declara.",
  "field.variable_unused": "La variable {name} está declarada pero la plantilla no la usa.",
  "field.template_placeholders":
    "La plantilla puede tener como máximo {limit, plural, one {# marcador} other {# marcadores}}.",
  "field.variable_missing": "La variable obligatoria {name} no tiene valor.",
  "field.model_not_offered": "Debe ser uno de los modelos del proveedor: {models}.",
};
