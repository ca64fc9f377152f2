import type { Catalogue } from "./en-US.js";
import { frFRFields } from "./fields/fr-FR.js";

export const frFR: Catalogue = {
  ...frFRFields,
  validation_failed: "La requête n’est pas valide. Consultez le détail de chaque champ.",
  invalid_json: "Le corps de la requête n’est pas un JSON valide.",
  unauthorized: "L’authentification est absente ou invalide.",
  invalid_credentials: "L’adresse e-mail ou le mot de passe est incorrect.",
  subscription_inactive:
    "L’abonnement de cet établissement est inactif. Mettez à jour la facturation pour rétablir l’accès.",
  forbidden: "Vous n’avez pas l’autorisation de faire cela.",
  "forbidden.admin_required": "Seul un administrateur de l’établissement peut faire cela.",
  "forbidden.cross_site":
    "Requête intersite refusée : une requête authentifiée par le cookie de session doit venir du site même de l’établissement.",
  insufficient_scope: "Cette clé d’API n’a pas la portée requise ici : {scope}.",
  session_required: "Cette opération exige une session connectée ; les clés d’API ne sont pas acceptées.",
  not_found: "La ressource demandée est introuvable.",
  tenant_not_found:
    "Aucun établissement n’est servi à l’hôte « {host} ». Chaque établissement a son propre hôte : <slug>.{baseDomain}{port}, ou un domaine qu’il a vérifié.",
  "tenant_not_found.no_host":
    "La requête n’a pas d’en-tête Host : elle ne désigne aucun établissement. Chaque établissement a son propre hôte : <slug>.{baseDomain}, ou un domaine qu’il a vérifié.",
  conflict: "La requête est en conflit avec l’état actuel de la ressource.",
  "conflict.lti_tool_disabled": "Cet outil LTI est désactivé.",
  "conflict.email_taken": "Un utilisateur avec cette adresse e-mail existe déjà dans cet établissement.",
  "conflict.last_admin": "L’établissement doit conserver au moins un administrateur actif.",
  "conflict.class_code_taken": "Un groupe de classe avec ce code existe déjà dans cet établissement.",
  "conflict.class_full":
    "Le groupe de classe est complet : il admet au plus {capacity, plural, one {# membre} other {# membres}}.",
  "conflict.capacity_below_members":
    "Le groupe de classe compte déjà {members, plural, one {# membre} other {# membres}} ; la capacité ne peut pas être inférieure.",
  "conflict.invite_pending": "Une invitation en attente existe déjà pour cette adresse e-mail.",
  "conflict.invite_accepted": "Cette invitation a déjà été acceptée.",
  "conflict.invite_revoked": "Cette invitation a été révoquée.",
  "conflict.invite_expired": "Cette invitation a expiré. Demandez-en une nouvelle.",
  payload_too_large: "Le corps de la requête est trop volumineux.",
  headers_too_large: "Les en-têtes de la requête sont trop volumineux.",
  request_timeout: "La requête n’a pas été reçue à temps.",
  unsupported_media_type: "Envoyez le corps de la requête au format application/json.",
  student_limit_reached:
    "L’offre {plan} admet {limit, plural, one {# apprenant} other {# apprenants}} et n’a plus de place. {upgrade, select, checkout {Un administrateur peut passer l’établissement à une offre payante avec POST /api/institution/billing/checkout.} portal {Un administrateur peut passer l’établissement à une offre supérieure dans le portail de facturation (POST /api/institution/billing/portal).} other {Aucune offre n’admet plus d’apprenants ; les limites sont fixées par l’exploitant du service (PLAN_STUDENT_LIMITS).}}",
  "student_limit_reached.limit":
    "L’offre admet au plus {limit, plural, one {# apprenant} other {# apprenants}}.",
  "student_limit_reached.plan": "L’offre de l’établissement est {plan}.",
  rate_limit_exceeded:
    "Trop de requêtes. Réessayez dans {retryAfter, plural, one {# seconde} other {# secondes}}.",
  "rate_limit_exceeded.login":
    "Trop de tentatives de connexion. Réessayez dans {retryAfter, plural, one {# seconde} other {# secondes}}.",
  internal_error: "Une erreur inattendue s’est produite. Veuillez réessayer plus tard.",
  student_limit_unverifiable:
    "La limite d’apprenants de l’offre ne peut pas être vérifiée pour le moment. Veuillez réessayer plus tard.",
  invalid_signature: "L'en-tête Stripe-Signature est absent, expiré ou ne correspond pas au corps.",
  "conflict.already_subscribed":
    "Cet établissement a déjà un abonnement. Utilisez le portail de facturation pour changer de forfait ou de moyen de paiement.",
  "conflict.automation_limit":
    "Cet établissement a déjà {limit, plural, one {# automatisation ou endpoint de webhook} other {# automatisations et endpoints de webhook}}, le maximum autorisé. Supprimez-en un d’abord.",
  "conflict.endpoint_disabled":
    "Cet endpoint de webhook est désactivé : activez-le avant de lui envoyer un événement de test.",
  "conflict.not_inbound": "Seule une automatisation déclenchée par un webhook entrant a un jeton.",
  "conflict.idempotency_mismatch": "Cette Idempotency-Key a déjà servi pour une autre requête.",
  "conflict.idempotency_in_progress":
    "Une requête avec cette Idempotency-Key est encore en cours. Réessayez dans un instant.",
  "conflict.no_billing_customer":
    "Cet établissement n'a pas encore de compte de facturation. Lancez d'abord un paiement.",
  payment_provider_error: "Le prestataire de paiement est injoignable. Veuillez réessayer plus tard.",
  billing_not_configured:
    "La facturation n'est pas disponible pour ce forfait et cette devise pour le moment.",
  "conflict.bank_in_use": "Un quiz tire des questions de cette banque ou utilise l'une de ses questions.",
  "conflict.quiz_exists": "Cette leçon a déjà un quiz.",
  "conflict.quiz_has_attempts":
    "Ce quiz a des tentatives ; elles font partie de l'historique des notes et ne peuvent pas être supprimées avec lui.",
  "conflict.attempts_exhausted": "Cet utilisateur a utilisé toutes les tentatives autorisées par le quiz.",
  "conflict.attempt_in_progress": "Cet utilisateur a une tentative de ce quiz encore en cours.",
  "conflict.attempt_submitted": "Cette tentative a déjà été soumise.",
  "conflict.attempt_time_up":
    "Le temps de cette tentative a expiré le {at} ; elle ne peut plus être soumise.",
  "conflict.attempt_not_submitted":
    "Cette tentative est encore en cours ; elle pourra être notée une fois soumise.",
  "conflict.quiz_no_questions": "Ce quiz n'a aucune question active à tirer.",
  "conflict.domain_taken": "Ce domaine est déjà enregistré.",
  "conflict.tag_name_taken": "Une étiquette porte déjà ce nom.",
  "conflict.tag_in_use":
    "L’étiquette est encore attachée à des ressources de type {resourceType} ; retirez-la de celles-ci avant d’ôter {resourceType} de appliesTo.",
  "conflict.course_has_enrollments":
    "Ce cours a des inscriptions qui n'ont pas été abandonnées. Abandonnez-les d'abord ou supprimez avec force=true.",
  "conflict.already_enrolled": "Cet utilisateur a déjà une inscription en cours dans ce cours.",
  "conflict.not_enrolled":
    "Cet utilisateur n'a pas d'inscription active ou terminée dans le cours de cette leçon.",
  "conflict.course_has_certificate_template":
    "Un autre modèle de certificat délivre déjà des certificats pour l’un de ces cours.",
  "conflict.path_has_certificate_template":
    "Un autre modèle de certificat délivre déjà des certificats pour l’un de ces parcours.",
  "conflict.certificate_template_archived":
    "Ce modèle de certificat est archivé et ne délivre aucun certificat.",
  "conflict.certificate_not_enrolled": "Cet utilisateur n’a aucune inscription à certifier dans ce cours.",
  "conflict.certificate_exists": "Cette inscription a déjà un certificat valide. Révoquez-le d’abord.",
  "conflict.certificate_revoked": "Ce certificat est déjà révoqué.",
  "conflict.profile_value_taken": "Un autre utilisateur a déjà cette valeur dans un champ de profil unique.",
  "conflict.profile_key_taken": "Un champ de profil avec cette clé existe déjà.",
  "conflict.profile_unique_duplicates":
    "Des utilisateurs partagent déjà des valeurs de ce champ ; il ne peut pas devenir unique.",
  "conflict.profile_field_limit":
    "Un établissement peut définir au plus {limit, plural, one {# champ de profil} other {# champs de profil}}.",
  "conflict.theme_active": "C'est le thème actif : activez d'abord un autre thème.",
  "conflict.theme_activation_race": "Un autre thème a été activé en même temps. Réessayez.",
  "conflict.media_in_use":
    "{lessons, plural, one {# leçon utilise ce fichier} other {# leçons utilisent ce fichier}} : retirez-le d’abord, ou supprimez avec force=true.",
  "conflict.media_not_uploaded": "Rien n'a encore été envoyé pour ce fichier.",
  "conflict.media_already_uploaded": "Le contenu de ce fichier a déjà été envoyé.",
  "conflict.media_failed": "Cet envoi a échoué ({error}). Commencez-en un nouveau.",
  "conflict.report_not_ready": "Ce rapport n'a pas de fichier à télécharger : son exécution est {status}.",
  "conflict.job_ended": "Cette tâche est déjà terminée ({status}) ; il n'y a rien à annuler.",
  "conflict.media_not_ready": "Ce fichier n'est pas prêt : {id}.",
  "payload_too_large.storage_quota":
    "Stockage insuffisant : le fichier demande {neededMb, number, megabytes} ({needed, plural, one {# octet} many {# d’octets} other {# octets}}) et il reste {availableMb, number, megabytes} ({available, plural, one {# octet} many {# d’octets} other {# octets}}) au forfait.",
  "payload_too_large.upload_size":
    "Le corps dépasse la taille déclarée pour ce fichier : {sizeMb, number, megabytes} ({sizeBytes, plural, one {# octet} many {# d’octets} other {# octets}}).",
  "payload_too_large.max_upload":
    "Un fichier peut faire au plus {maxMb, number, megabytes} ({max, plural, one {# octet} many {# d’octets} other {# octets}}).",
  "forbidden.media_token": "Ce lien d'envoi ou de téléchargement est invalide ou a expiré.",
  storage_unavailable:
    "Le stockage de fichiers « {store} » qui contient ce fichier n'est pas disponible sur ce serveur. Réessayez plus tard.",
  "conflict.media_verifying":
    "Une autre requête vérifie cet envoi. Consultez le fichier pour en connaître le résultat.",
  "conflict.media_completion_lost":
    "Une autre requête a tranché cet envoi pendant que celle-ci le vérifiait. Consultez le fichier pour en connaître le résultat.",
  "forbidden.drive_audience":
    "Vous ne pouvez pas partager de fichiers avec le public de ce dossier ({scope}).",
  "conflict.folder_name_taken": "Un dossier de ce nom existe déjà ici.",
  "conflict.folder_not_empty":
    "Ce dossier n'est pas vide. Videz-le d'abord, ou supprimez avec recursive=true.",
  "conflict.path_has_enrollments":
    "Ce parcours a des inscriptions. Supprimez-les d'abord ou supprimez avec force=true.",
  video_provider_error:
    "Le fournisseur vidéo est injoignable ou a refusé la demande. Veuillez réessayer plus tard.",
  "conflict.video_provider_in_use": "Des classes en direct encore programmées utilisent cette connexion.",
  "conflict.attendance_not_reported":
    "Son fournisseur vidéo ne rapporte pas la présence : enregistrez-la avec PUT …/attendance.",
  "session_required.credential_endpoint":
    "Modifier {field} change la destination des identifiants de cette connexion : cela exige la session connectée d’un administrateur ; les clés d’API ne sont pas acceptées.",
  "forbidden.live_class_host": "Seul l’hôte de la classe ou un administrateur peut faire cela.",
  "forbidden.live_class_cohost": "Seul l’hôte de la classe, un co-hôte ou un administrateur peut faire cela.",
  "forbidden.live_class_own":
    "Un enseignant ne programme que les classes qu’il anime ; un administrateur ou une clé d’API peut désigner un autre hôte.",
  "forbidden.calendar_event_owner":
    "Seul le créateur de l’événement ou un administrateur peut le modifier ou le supprimer.",
  "forbidden.gradebook_teacher":
    "Un enseignant ne peut voir et modifier que le carnet de notes des cours qu’il enseigne.",
  "conflict.grade_item_has_grades":
    "Cet élément a des notes ; supprimez-le avec ?force=true pour les supprimer aussi.",
  "conflict.grade_limit": "Un cours en compte au plus {limit}.",
  "conflict.grade_source_taken": "Un autre élément de note de ce cours prend déjà ses notes de cette source.",
  "forbidden.rubric_teacher": "Un enseignant ne modifie les grilles et n'évalue que dans ses cours.",
  "conflict.rubric_archived": "Cette grille est archivée ; activez-la pour évaluer avec elle.",
  "conflict.assignment_exists": "Cette leçon a déjà un devoir.",
  "conflict.assignment_has_submissions": "Ce devoir a des remises ; supprimez-le avec ?force=true.",
  "conflict.assignment_locked": "Ce devoir n’accepte plus de remises (verrouillé).",
  "conflict.submission_attempts_exhausted": "Cet utilisateur a utilisé toutes les tentatives du devoir.",
  "forbidden.submission_own": "Un élève ne peut remettre que son propre travail.",
  ai_not_configured: "Aucun fournisseur d’IA n’est configuré pour cet établissement.",
  ai_provider_error: "Le fournisseur d’IA est injoignable ou a refusé l’appel. Veuillez réessayer plus tard.",
  ai_limit_unverifiable:
    "La limite d’usage de l’IA ne peut pas être vérifiée pour le moment ; l’appel n’a pas été fait. Veuillez réessayer plus tard.",
  "conflict.prompt_key_taken": "Un prompt avec cette clé existe déjà.",
  "conflict.prompt_active_taken":
    "Un autre prompt est déjà actif pour cette fonctionnalité et cette portée ; archivez-le ou repassez-le en brouillon d’abord.",
};
