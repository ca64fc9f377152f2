import { enUSFields } from "./fields/en-US.js";
/**
 * The reference catalogue: every other language must have exactly these keys and arguments (checked by the type
 * below and by a test). Messages are ICU MessageFormat, rendered by `platform/i18n/translate`: `{name}` is filled
 * from the error's parameters; a count is `{n, plural, one {# item} other {# items}}` and any other number
 * `{n, number, exact}` (or `megabytes`), so each language applies its own plural rules and digit grouping. An
 * ASCII apostrophe next to a brace quotes it (`'{{'` is a literal `{{`); elsewhere it is plain text.
 */
export const enUS = {
  ...enUSFields,
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
  "conflict.lti_tool_disabled": "This LTI tool is disabled.",
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
  "conflict.endpoint_disabled":
    "This webhook endpoint is disabled: enable it before sending it a test event.",
  "conflict.not_inbound": "Only an automation triggered by an inbound webhook has a token.",
  "conflict.idempotency_mismatch": "This Idempotency-Key was already used with a different request.",
  "conflict.idempotency_in_progress":
    "A request with this Idempotency-Key is still in progress. Retry shortly.",
  "conflict.no_billing_customer": "This institution has no billing account yet. Start a checkout first.",
  payment_provider_error: "The payment provider could not be reached. Please try again later.",
  billing_not_configured: "Billing is not available for this plan and currency right now.",
  "conflict.bank_in_use": "A quiz draws from this question bank or names one of its questions.",
  "conflict.quiz_exists": "This lesson already has a quiz.",
  "conflict.quiz_has_attempts":
    "This quiz has attempts; they are grade history and cannot be deleted with it.",
  "conflict.attempts_exhausted": "This user has used every attempt the quiz allows.",
  "conflict.attempt_in_progress": "This user has an attempt at this quiz still in progress.",
  "conflict.attempt_submitted": "This attempt was already submitted.",
  "conflict.attempt_time_up": "The time for this attempt ran out at {at}; it can no longer be submitted.",
  "conflict.attempt_not_submitted": "This attempt is still in progress; it can be graded once submitted.",
  "conflict.quiz_no_questions": "This quiz has no active questions to draw.",
  "conflict.domain_taken": "This domain is already registered.",
  "conflict.tag_name_taken": "A tag with this name already exists.",
  "conflict.tag_in_use":
    "The tag is still attached to {resourceType} resources; remove it from them before taking {resourceType} out of appliesTo.",
  "conflict.course_has_enrollments":
    "This course has enrollments that are not dropped. Drop them first, or delete with force=true.",
  "conflict.already_enrolled": "This user already has a current enrollment in this course.",
  "conflict.not_enrolled": "This user has no active or completed enrollment in the lesson's course.",
  "conflict.course_has_certificate_template":
    "Another certificate template already issues certificates for one of these courses.",
  "conflict.path_has_certificate_template":
    "Another certificate template already issues certificates for one of these learning paths.",
  "conflict.certificate_template_archived":
    "This certificate template is archived and issues no certificates.",
  "conflict.certificate_not_enrolled": "This user has no enrollment in this course to certify.",
  "conflict.certificate_exists": "This enrollment already holds a valid certificate. Revoke it first.",
  "conflict.certificate_revoked": "This certificate is already revoked.",
  "conflict.profile_value_taken": "Another user already has this value in a unique profile field.",
  "conflict.profile_key_taken": "A profile field with this key already exists.",
  "conflict.profile_unique_duplicates": "Users already share values of this field; it cannot become unique.",
  "conflict.profile_field_limit":
    "An institution can define at most {limit, plural, one {# profile field} other {# profile fields}}.",
  "conflict.theme_active": "This is the active theme: activate another theme first.",
  "conflict.theme_activation_race": "Another theme was activated at the same time. Try again.",
  "conflict.media_in_use":
    "{lessons, plural, one {# lesson uses this file; remove it from that lesson} other {# lessons use this file; remove it from them}} first, or delete with force=true.",
  "conflict.media_not_uploaded": "Nothing has been uploaded for this file yet.",
  "conflict.media_already_uploaded": "The content of this file has already been uploaded.",
  "conflict.media_failed": "This upload failed ({error}). Start a new one.",
  "conflict.report_not_ready": "This report has no file to download: its run is {status}.",
  "conflict.job_ended": "This job has already ended ({status}); there is nothing to cancel.",
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
  "conflict.folder_name_taken": "A folder with this name already exists here.",
  "conflict.folder_not_empty": "This folder is not empty. Empty it first, or delete with recursive=true.",
  "conflict.path_has_enrollments":
    "This learning path has enrollments. Remove them first, or delete with force=true.",
  video_provider_error:
    "The video provider could not be reached or refused the request. Please try again later.",
  "conflict.video_provider_in_use": "Live classes that are still scheduled use this connection.",
  "conflict.attendance_not_reported":
    "Its video provider does not report attendance: record it with PUT …/attendance.",
  "session_required.credential_endpoint":
    "Changing {field} changes where this connection's credentials are sent: that needs an administrator's signed-in session; API keys are not accepted.",
  "forbidden.live_class_host": "Only the class's host or an administrator can do this.",
  "forbidden.live_class_cohost": "Only the class's host, a co-host or an administrator can do this.",
  "forbidden.live_class_own":
    "A teacher schedules only classes they host; an administrator or an API key may name another host.",
  "forbidden.calendar_event_owner": "Only the event's creator or an administrator can change or delete it.",
  "forbidden.gradebook_teacher": "A teacher can see and change the gradebook of the courses they teach only.",
  "conflict.grade_item_has_grades":
    "This grade item has grades; delete it with ?force=true to delete them too.",
  "conflict.grade_limit": "A course holds at most {limit} of these.",
  "conflict.grade_source_taken":
    "Another grade item of this course already takes its grades from this source.",
  "forbidden.rubric_teacher": "A teacher changes rubrics and assesses work in the courses they teach only.",
  "conflict.rubric_archived": "This rubric is archived; make it active to assess with it.",
  "conflict.assignment_exists": "This lesson already has an assignment.",
  "conflict.assignment_has_submissions": "This assignment has submissions; delete with ?force=true.",
  "conflict.assignment_locked": "This assignment no longer takes submissions (locked).",
  "conflict.submission_attempts_exhausted": "This user has used every attempt the assignment allows.",
  "forbidden.submission_own": "A student can submit its own work only.",
  ai_not_configured: "No AI provider is configured for this institution.",
  ai_provider_error: "The AI provider could not be reached or refused the call. Please try again later.",
  ai_limit_unverifiable:
    "The AI usage limit cannot be checked right now, so the call was not made. Please try again later.",
  "conflict.prompt_key_taken": "A prompt with this key already exists.",
  "conflict.prompt_active_taken":
    "Another prompt is already active for this feature and scope; archive it or make it a draft first.",
} as const;

export type MessageKey = keyof typeof enUS;
export type Catalogue = Readonly<Record<MessageKey, string>>;
