/**
 * The reference catalogue: every other language must have exactly these keys and arguments (checked by the type
 * below and by a test). Messages are ICU MessageFormat, rendered by `platform/i18n/translate`: `{name}` is filled
 * from the error's parameters; a count is `{n, plural, one {# item} other {# items}}` and any other number
 * `{n, number, exact}` (or `megabytes`), so each language applies its own plural rules and digit grouping. An
 * ASCII apostrophe next to a brace quotes it (`'{{'` is a literal `{{`); elsewhere it is plain text.
 */
export const enUS = {
  validation_failed: "The request is not valid. See details for each field.",
  invalid_json: "The request body is not valid JSON.",
  unauthorized: "Authentication is missing or invalid.",
  invalid_credentials: "The e-mail or password is incorrect.",
  subscription_inactive: "This institution's subscription is inactive. Update billing to restore access.",
  forbidden: "You do not have permission to do this.",
  "forbidden.admin_required": "Only an institution administrator can do this.",
  "forbidden.cross_site":
    "Cross-site request refused: a request signed in with a session cookie must come from this institution's own site.",
  insufficient_scope: "This API key does not have the scope required here: {scope}.",
  session_required: "This operation requires a signed-in session; API keys are not accepted.",
  not_found: "The requested resource was not found.",
  tenant_not_found:
    'No institution is served at host "{host}". Each institution has its own host: <slug>.{baseDomain}{port}, or a custom domain it has verified.',
  "tenant_not_found.no_host":
    "The request has no Host header, so it names no institution. Each institution has its own host: <slug>.{baseDomain}, or a custom domain it has verified.",
  conflict: "The request conflicts with the current state of the resource.",
  "conflict.email_taken": "A user with this e-mail already exists in this institution.",
  "conflict.last_admin": "An institution must keep at least one active administrator.",
  "conflict.class_code_taken": "A class with this code already exists in this institution.",
  "conflict.class_full":
    "The class is full: it admits at most {capacity, plural, one {# member} other {# members}}.",
  "conflict.capacity_below_members":
    "The class already has {members, plural, one {# member} other {# members}}; the capacity cannot be lower.",
  "conflict.invite_pending": "A pending invitation for this e-mail already exists.",
  "conflict.invite_accepted": "This invitation has already been accepted.",
  "conflict.invite_revoked": "This invitation has been revoked.",
  "conflict.invite_expired": "This invitation has expired. Ask for a new one.",
  "field.ends_before_starts": "Must be later than startsAt.",
  "field.future_required": "Must be in the future.",
  "field.max_days_ahead": "Must be at most {days, plural, one {# day} other {# days}} from now.",
  payload_too_large: "The request body is too large.",
  headers_too_large: "The request headers are too large.",
  request_timeout: "The request was not received in time.",
  unsupported_media_type: "Send the request body as application/json.",
  student_limit_reached:
    "The {plan} plan admits {limit, plural, one {# student} other {# students}} and has no seat left. {upgrade, select, checkout {An administrator can move the institution to a paid plan with POST /api/institution/billing/checkout.} portal {An administrator can move the institution to a larger plan in the billing portal (POST /api/institution/billing/portal).} other {No plan admits more students; the service's operator sets the limits (PLAN_STUDENT_LIMITS).}}",
  "student_limit_reached.limit":
    "The plan admits at most {limit, plural, one {# student} other {# students}}.",
  "student_limit_reached.plan": "The institution's plan is {plan}.",
  rate_limit_exceeded:
    "Too many requests. Try again in {retryAfter, plural, one {# second} other {# seconds}}.",
  "rate_limit_exceeded.login":
    "Too many sign-in attempts. Try again in {retryAfter, plural, one {# second} other {# seconds}}.",
  internal_error: "An unexpected error occurred. Please try again later.",
  student_limit_unverifiable:
    "The plan's student limit cannot be verified right now. Please try again later.",
  invalid_signature: "The Stripe-Signature header is missing, expired or does not match the body.",
  "conflict.already_subscribed":
    "This institution already has a subscription. Use the billing portal to change the plan or the payment method.",
  "conflict.automation_limit":
    "This institution already has {limit, plural, one {# automation or webhook endpoint} other {# automations and webhook endpoints}}, the most it may have. Delete one first.",
  "conflict.not_inbound": "Only an automation triggered by an inbound webhook has a token.",
  "conflict.idempotency_mismatch": "This Idempotency-Key was already used with a different request.",
  "conflict.idempotency_in_progress":
    "A request with this Idempotency-Key is still in progress. Retry shortly.",
  "conflict.no_billing_customer": "This institution has no billing account yet. Start a checkout first.",
  payment_provider_error: "The payment provider could not be reached. Please try again later.",
  billing_not_configured: "Billing is not available for this plan and currency right now.",
  "field.header_reserved": "This header is set by the platform or by HTTP itself and cannot be configured.",
  "field.url_forbidden":
    "Must be an http(s) URL of a public host, without templates or credentials. An address on your own machine or network (a receiver during development) is reached only once the server's operator lists its range in OUTBOUND_ALLOW_CIDRS, for example 127.0.0.1/32.",
  "field.required": "This field is required.",
  "field.unknown": "This field is not allowed.",
  "field.unknown_cursor":
    "No event with this id is kept for this institution (events are kept 30 days); start again with `since`.",
  "field.type": "Must be of type {type}.",
  "field.format": "Must be a valid {format}.",
  "field.min_length": "Must be at least {limit, plural, one {# character} other {# characters}} long.",
  "field.max_length": "Must be at most {limit, plural, one {# character} other {# characters}} long.",
  "field.minimum": "Must be greater than or equal to {limit, number, exact}.",
  "field.maximum": "Must be less than or equal to {limit, number, exact}.",
  "field.exclusive_minimum": "Must be greater than {limit, number, exact}.",
  "field.exclusive_maximum": "Must be less than {limit, number, exact}.",
  "field.enum": "Must be one of: {values}.",
  "field.pattern": "Has an invalid format.",
  "field.min_items": "Must contain at least {limit, plural, one {# item} other {# items}}.",
  "field.max_items": "Must contain at most {limit, plural, one {# item} other {# items}}.",
  "field.unique_items": "Must not contain duplicate items.",
  "field.invalid": "Is not valid.",
  "field.unstorable": "Must not contain the character U+0000 or an unpaired UTF-16 surrogate.",
  "field.max_depth":
    "Must not nest arrays and objects more than {limit, plural, one {# level} other {# levels}} deep.",
  "field.host_header": "Must be a host name or IP address, optionally followed by :port.",
  "field.unknown_scope": "Unknown scope: {scope}.",
  "field.unknown_class_group": "Unknown class group: {id}.",
  "field.unknown_lesson": "Unknown lesson: {id}.",
  "field.unknown_question": "Unknown question: {id}.",
  "field.unknown_question_bank": "Unknown question bank: {id}.",
  "field.lesson_not_quiz": "Must be a lesson of type quiz.",
  "field.not_for_type": "Not allowed when type is {type}.",
  "field.correct_options_one": "Exactly one option must be correct.",
  "field.correct_options_some": "At least one option must be correct.",
  "field.duplicate": "Repeats an earlier entry: {value}.",
  "field.numeric_form": "Give either value (with an optional tolerance) or min and max.",
  "field.range_order": "Must not be greater than max.",
  "field.not_in_attempt": "This question is not part of the attempt.",
  "field.response_shape": "Is not a valid answer to a {type} question.",
  "field.answers_need_fixed":
    "Answers can be sent when starting an attempt only if every section is fixed; start the attempt, then submit it.",
  "conflict.bank_in_use": "A quiz draws from this question bank or names one of its questions.",
  "conflict.quiz_exists": "This lesson already has a quiz.",
  "conflict.quiz_has_attempts":
    "This quiz has attempts; they are grade history and cannot be deleted with it.",
  "conflict.attempts_exhausted": "This user has used every attempt the quiz allows.",
  "conflict.attempt_in_progress": "This user has an attempt at this quiz still in progress.",
  "conflict.attempt_submitted": "This attempt was already submitted.",
  "conflict.attempt_not_submitted": "This attempt is still in progress; it can be graded once submitted.",
  "conflict.quiz_no_questions": "This quiz has no active questions to draw.",
  "conflict.domain_taken": "This domain is already registered.",
  "conflict.tag_name_taken": "A tag with this name already exists.",
  "conflict.tag_in_use":
    "The tag is still attached to {resourceType} resources; remove it from them before taking {resourceType} out of appliesTo.",
  "field.timezone": "Must be an IANA time zone, such as America/Sao_Paulo.",
  "field.host_name":
    "Must be a lowercase domain name with at least two labels, such as learn.example.com, and not an IP address.",
  "field.host_reserved": "Must not be the platform's own domain or one of its subdomains.",
  "field.tag_not_applicable": "This tag does not apply to {resourceType}.",
  "field.custom_limits_required": "Required when rateTier is custom.",
  "field.custom_limits_forbidden": "Only allowed when rateTier is custom.",
  "field.missing_scope": "Required scope: {scope}.",
  "field.no_changes": "Give at least one field to change.",
  "conflict.course_has_enrollments":
    "This course has enrollments that are not dropped. Drop them first, or delete with force=true.",
  "field.not_for_lesson_type": "Not available for {type} lessons.",
  "field.url_or_media": "Give exactly one of url and mediaId.",
  "field.https_url": "Must be an https URL.",
  "field.criteria_only": "Only allowed when completionCriteria.type is {type}.",
  "field.due_before_unlock": "Must not be earlier than unlockAt.",
  "field.order_mismatch": "Must list every current item exactly once, and nothing else.",
  "field.same_course_module": "Must be a module of the same course.",
  "field.prerequisite_invalid": "Must be a module of the same course placed before this one: {id}.",
  "field.order_breaks_prerequisites": "This order would place a module before one of its prerequisites.",
  "conflict.already_enrolled": "This user already has a current enrollment in this course.",
  "conflict.not_enrolled": "This user has no active or completed enrollment in the lesson's course.",
  "field.unknown_user": "Unknown user: {id}.",
  "field.unknown_user_email": "No user with the e-mail {email}.",
  "field.unknown_course": "Unknown course: {id}.",
  "field.unknown_certificate_template": "Unknown certificate template: {id}.",
  "conflict.course_has_certificate_template":
    "Another certificate template already issues certificates for one of these courses.",
  "conflict.certificate_template_archived":
    "This certificate template is archived and issues no certificates.",
  "conflict.certificate_not_enrolled": "This user has no enrollment in this course to certify.",
  "conflict.certificate_exists": "This enrollment already holds a valid certificate. Revoke it first.",
  "conflict.certificate_revoked": "This certificate is already revoked.",
  "field.after_starts_at": "Must be later than the start of the enrollment ({startsAt}).",
  "field.user_or_email": "Give exactly one of userId and email.",
  "field.grading_scale_order": "Must be lower than the minPercent of the band before it.",
  "field.grading_scale_floor": "The last band must start at 0.",
  "field.email_domain_not_allowed": "The institution only admits e-mail addresses at: {domains}.",
  "field.profile_unknown": "Unknown profile field: {key}.",
  "field.profile_option": "Must be one of the field's options: {values}.",
  "field.profile_date": "Must be a date written YYYY-MM-DD.",
  "field.profile_options_for_type":
    "Options are required for select and multiselect fields, and allowed for no other type.",
  "field.profile_validation_for_type": "Not a validation rule of {type} fields.",
  "field.regex": "Must be a valid regular expression.",
  "field.regex_backtracking":
    "Backreferences and lookaround (lookahead, lookbehind) are not supported: patterns run on a linear-time engine.",
  "field.regex_unsupported": "Uses syntax the linear-time pattern engine does not support: {syntax}.",
  "field.html_too_complex":
    "Took too long to sanitise: simplify the HTML (fewer nested elements) or split it.",
  "field.regex_too_complex":
    "Is too complex for the longest value this field accepts: use smaller repetition counts or a lower maxLength.",
  "conflict.profile_value_taken": "Another user already has this value in a unique profile field.",
  "conflict.profile_key_taken": "A profile field with this key already exists.",
  "conflict.profile_unique_duplicates": "Users already share values of this field; it cannot become unique.",
  "conflict.profile_field_limit":
    "An institution can define at most {limit, plural, one {# profile field} other {# profile fields}}.",
  "conflict.theme_active": "This is the active theme: activate another theme first.",
  "conflict.theme_activation_race": "Another theme was activated at the same time. Try again.",
  "field.unknown_template_variable": "Unknown variable '{{'{name}'}}'; this template may use: {allowed}.",
  "field.unknown_template": "Unknown e-mail template: {key}.",
  "field.reset_token_invalid":
    "This password-reset link is invalid, expired or already used. Ask for a new one.",
  "field.no_recipients": "None of these users can receive e-mail (unknown, or without an address).",
  "field.custom_template_key":
    "A custom template's key is `custom.` followed by 1 to 64 lowercase letters, digits, `_` or `-`.",
  "conflict.media_in_use":
    "{lessons, plural, one {# lesson uses this file; remove it from that lesson} other {# lessons use this file; remove it from them}} first, or delete with force=true.",
  "conflict.media_not_uploaded": "Nothing has been uploaded for this file yet.",
  "conflict.media_already_uploaded": "The content of this file has already been uploaded.",
  "conflict.media_failed": "This upload failed ({error}). Start a new one.",
  "conflict.media_not_ready": "This file is not ready: {id}.",
  "payload_too_large.storage_quota":
    "Not enough storage: the file needs {neededMb, number, megabytes} ({needed, plural, one {# byte} other {# bytes}}) and the plan has {availableMb, number, megabytes} ({available, plural, one {# byte} other {# bytes}}) left.",
  "payload_too_large.upload_size":
    "The body is larger than the size declared for this file: {sizeMb, number, megabytes} ({sizeBytes, plural, one {# byte} other {# bytes}}).",
  "payload_too_large.max_upload":
    "A file may be at most {maxMb, number, megabytes} ({max, plural, one {# byte} other {# bytes}}).",
  "forbidden.media_token": "This upload or download link is invalid or has expired.",
  storage_unavailable:
    'The file store "{store}" that holds this file is not available on this server. Please try again later.',
  "conflict.media_verifying":
    "This upload is being verified by another request. Get the file to see the outcome.",
  "conflict.media_completion_lost":
    "Another request settled this upload while this one verified it. Get the file to see the outcome.",
  "forbidden.drive_audience": "You may not share files with the audience of this folder ({scope}).",
  "field.unknown_folder": "Unknown drive folder: {id}.",
  "field.unknown_class": "Unknown class: {id}.",
  "field.unknown_media": "Unknown file: {id}.",
  "field.media_kind": "File {id} is not of kind {kind}.",
  "conflict.folder_name_taken": "A folder with this name already exists here.",
  "conflict.folder_not_empty": "This folder is not empty. Empty it first, or delete with recursive=true.",
  "conflict.path_has_enrollments":
    "This learning path has enrollments. Remove them first, or delete with force=true.",
  "field.path_prerequisite": "Must be another course of this path: {id}.",
  "field.path_cycle": "Prerequisites must not form a cycle: {ids}.",
  "field.path_required_course": "A path needs at least one required course.",
  "field.folder_cycle": "A folder cannot be moved into itself or one of its sub-folders.",
  "field.scope_target":
    "Give courseId with the course scope, classId with the class scope, and neither with the institution scope.",
  "field.scope_on_root_only": "Only a top-level folder has its own scope; a sub-folder takes its parent's.",
  "field.upload_interrupted": "The upload was interrupted before the whole body arrived; send it again.",
  video_provider_error:
    "The video provider could not be reached or refused the request. Please try again later.",
  "conflict.video_provider_in_use": "Live classes that are still scheduled use this connection.",
  "field.rrule_invalid": "Must be a valid RFC 5545 recurrence rule (RRULE) without DTSTART.",
  "field.too_many_occurrences":
    "The rule yields more than {limit, plural, one {# occurrence} other {# occurrences}}; give COUNT or UNTIL.",
  "field.rrule_too_frequent":
    "Repeats at most once a day: FREQ is DAILY, WEEKLY, MONTHLY or YEARLY, at the start's time of day (no BYHOUR, BYMINUTE or BYSECOND).",
  "field.rrule_never":
    "The rule has no occurrence within {years, plural, one {# year} other {# years}} of the start.",
  "field.rrule_too_long":
    "The rule must end (COUNT or UNTIL) within {years, plural, one {# year} other {# years}} of the start.",
  "field.window_too_long":
    "The window from `from` to `to` must not exceed {days, plural, one {# day} other {# days}}.",
  "field.audience_required": "Give a course, a class or at least one invitee.",
  "conflict.attendance_not_reported":
    "Its video provider does not report attendance: record it with PUT …/attendance.",
  "session_required.credential_endpoint":
    "Changing {field} changes where this connection's credentials are sent: that needs an administrator's signed-in session; API keys are not accepted.",
  "forbidden.live_class_host": "Only the class's host or an administrator can do this.",
  "forbidden.live_class_cohost": "Only the class's host, a co-host or an administrator can do this.",
  "forbidden.live_class_own":
    "A teacher schedules only classes they host; an administrator or an API key may name another host.",
  "forbidden.calendar_event_owner": "Only the event's creator or an administrator can change or delete it.",
  "field.video_provider_unusable": "No connected video provider for live classes has this id.",
  "field.not_active_staff": "Must be an active teacher or administrator of this institution.",
  "field.lesson_not_in_course":
    "No lesson of this institution has this id, or it belongs to a course other than courseId.",
  "field.unknown_occurrence": "This live class has no occurrence with this id.",
  "field.css_unreadable": "Is not CSS that can be read: check its braces, quotes and comments.",
  "field.profile_value_taken": "Another user already has this value, and this field's values must be unique.",
  "field.profile_values_shared":
    "Some users share a value of this field, so it cannot be made unique until they differ.",
  "field.profile_filter_value":
    "Is not a value this profile field can hold (see the field's type and options).",
  "field.date_or_date_time":
    "Must be a date (YYYY-MM-DD) or a date-time with its offset (RFC 3339, e.g. 2026-03-01T09:00:00Z).",
  "forbidden.gradebook_teacher": "A teacher can see and change the gradebook of the courses they teach only.",
  "field.unknown_grade_item": "No grade item of this course has this id: {id}.",
  "field.unknown_grade_category": "No grade category of this course has this id: {id}.",
  "field.not_course_student": "This user is not a current student of the course: {id}.",
  "field.score_or_status": "Give a score, an override or a status.",
  "field.score_above_max": "Must be at most {max} (the item's maxPoints × 1.5).",
  "conflict.grade_item_has_grades":
    "This grade item has grades; delete it with ?force=true to delete them too.",
  "conflict.grade_limit": "A course holds at most {limit} of these.",
  "conflict.grade_source_taken":
    "Another grade item of this course already takes its grades from this source.",
  "field.lesson_not_assignment": "Must be a lesson of type assignment.",
  "field.lock_before_due": "Must not be earlier than the due date.",
  "field.submission_empty": "Give bodyText, attachmentMediaIds or url.",
  "field.kind_not_allowed": "This assignment does not take {kind} submissions.",
  "conflict.assignment_exists": "This lesson already has an assignment.",
  "conflict.assignment_has_submissions": "This assignment has submissions; delete with ?force=true.",
  "conflict.assignment_locked": "This assignment no longer takes submissions (locked).",
  "conflict.submission_attempts_exhausted": "This user has used every attempt the assignment allows.",
  "forbidden.submission_own": "A student can submit its own work only.",
} as const;

export type MessageKey = keyof typeof enUS;
export type Catalogue = Readonly<Record<MessageKey, string>>;
