import type { Catalogue } from "./en-US.js";

export const frFR: Catalogue = {
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
  "field.ends_before_starts": "Doit être postérieur à startsAt.",
  "field.future_required": "Doit être dans le futur.",
  "field.max_days_ahead": "Doit être au plus à {days, plural, one {# jour} other {# jours}} d’aujourd’hui.",
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
  "conflict.not_inbound": "Seule une automatisation déclenchée par un webhook entrant a un jeton.",
  "conflict.idempotency_mismatch": "Cette Idempotency-Key a déjà servi pour une autre requête.",
  "conflict.idempotency_in_progress":
    "Une requête avec cette Idempotency-Key est encore en cours. Réessayez dans un instant.",
  "conflict.no_billing_customer":
    "Cet établissement n'a pas encore de compte de facturation. Lancez d'abord un paiement.",
  payment_provider_error: "Le prestataire de paiement est injoignable. Veuillez réessayer plus tard.",
  billing_not_configured:
    "La facturation n'est pas disponible pour ce forfait et cette devise pour le moment.",
  "field.header_reserved":
    "Cet en-tête est fixé par la plateforme ou par HTTP lui-même et ne peut pas être configuré.",
  "field.url_forbidden":
    "Doit être une URL http(s) d'un hôte public, sans modèle ni identifiants. Une adresse de votre propre machine ou réseau (un récepteur pendant le développement) n'est acceptée que si l'opérateur du serveur inscrit sa plage dans OUTBOUND_ALLOW_CIDRS, par exemple 127.0.0.1/32.",
  "field.required": "Ce champ est obligatoire.",
  "field.unknown": "Ce champ n’est pas autorisé.",
  "field.unknown_cursor":
    "Aucun événement de cet identifiant n’est conservé pour cet établissement (les événements sont conservés 30 jours) ; reprenez avec `since`.",
  "field.type": "Doit être de type {type}.",
  "field.format": "Doit être un {format} valide.",
  "field.min_length": "Doit comporter au moins {limit, plural, one {# caractère} other {# caractères}}.",
  "field.max_length": "Doit comporter au plus {limit, plural, one {# caractère} other {# caractères}}.",
  "field.minimum": "Doit être supérieur ou égal à {limit, number, exact}.",
  "field.maximum": "Doit être inférieur ou égal à {limit, number, exact}.",
  "field.exclusive_minimum": "Doit être strictement supérieur à {limit, number, exact}.",
  "field.exclusive_maximum": "Doit être strictement inférieur à {limit, number, exact}.",
  "field.enum": "Doit être l’une des valeurs suivantes : {values}.",
  "field.pattern": "Le format n’est pas valide.",
  "field.min_items": "Doit contenir au moins {limit, plural, one {# élément} other {# éléments}}.",
  "field.max_items": "Doit contenir au plus {limit, plural, one {# élément} other {# éléments}}.",
  "field.unique_items": "Ne doit pas contenir de doublons.",
  "field.invalid": "N’est pas valide.",
  "field.unstorable": "Ne doit pas contenir le caractère U+0000 ni un substitut UTF-16 isolé.",
  "field.max_depth":
    "Ne doit pas imbriquer tableaux et objets sur plus de {limit, plural, one {# niveau} other {# niveaux}}.",
  "field.host_header": "Doit être un nom d’hôte ou une adresse IP, éventuellement suivi de :port.",
  "field.unknown_scope": "Portée inconnue : {scope}.",
  "field.unknown_class_group": "Groupe de classe inconnu : {id}.",
  "field.unknown_lesson": "Leçon inconnue : {id}.",
  "field.unknown_question": "Question inconnue : {id}.",
  "field.unknown_question_bank": "Banque de questions inconnue : {id}.",
  "field.lesson_not_quiz": "Doit être une leçon de type quiz.",
  "field.not_for_type": "Non autorisé lorsque le type est {type}.",
  "field.correct_options_one": "Exactement une option doit être correcte.",
  "field.correct_options_some": "Au moins une option doit être correcte.",
  "field.duplicate": "Répète une entrée précédente : {value}.",
  "field.numeric_form": "Indiquez value (avec une tolerance facultative) ou bien min et max.",
  "field.range_order": "Ne doit pas être supérieur à max.",
  "field.not_in_attempt": "Cette question ne fait pas partie de la tentative.",
  "field.response_shape": "N'est pas une réponse valide à une question de type {type}.",
  "field.answers_need_fixed":
    "Des réponses ne peuvent être envoyées au début d'une tentative que si toutes les sections sont fixes ; démarrez la tentative, puis soumettez-la.",
  "conflict.bank_in_use": "Un quiz tire des questions de cette banque ou utilise l'une de ses questions.",
  "conflict.quiz_exists": "Cette leçon a déjà un quiz.",
  "conflict.quiz_has_attempts":
    "Ce quiz a des tentatives ; elles font partie de l'historique des notes et ne peuvent pas être supprimées avec lui.",
  "conflict.attempts_exhausted": "Cet utilisateur a utilisé toutes les tentatives autorisées par le quiz.",
  "conflict.attempt_in_progress": "Cet utilisateur a une tentative de ce quiz encore en cours.",
  "conflict.attempt_submitted": "Cette tentative a déjà été soumise.",
  "conflict.attempt_not_submitted":
    "Cette tentative est encore en cours ; elle pourra être notée une fois soumise.",
  "conflict.quiz_no_questions": "Ce quiz n'a aucune question active à tirer.",
  "conflict.domain_taken": "Ce domaine est déjà enregistré.",
  "conflict.tag_name_taken": "Une étiquette porte déjà ce nom.",
  "conflict.tag_in_use":
    "L’étiquette est encore attachée à des ressources de type {resourceType} ; retirez-la de celles-ci avant d’ôter {resourceType} de appliesTo.",
  "field.timezone": "Doit être un fuseau horaire IANA, comme America/Sao_Paulo.",
  "field.host_name":
    "Doit être un nom de domaine en minuscules comportant au moins deux libellés, comme cours.exemple.fr, et non une adresse IP.",
  "field.host_reserved": "Ne doit pas être le domaine de la plateforme ni l’un de ses sous-domaines.",
  "field.tag_not_applicable": "Cette étiquette ne s’applique pas à {resourceType}.",
  "field.custom_limits_required": "Obligatoire lorsque rateTier vaut custom.",
  "field.custom_limits_forbidden": "Autorisé uniquement lorsque rateTier vaut custom.",
  "field.missing_scope": "Portée requise : {scope}.",
  "field.no_changes": "Indiquez au moins un champ à modifier.",
  "conflict.course_has_enrollments":
    "Ce cours a des inscriptions qui n'ont pas été abandonnées. Abandonnez-les d'abord ou supprimez avec force=true.",
  "field.not_for_lesson_type": "Non disponible pour les leçons de type {type}.",
  "field.url_or_media": "Indiquez exactement un champ parmi url et mediaId.",
  "field.https_url": "Doit être une URL https.",
  "field.criteria_only": "Autorisé uniquement lorsque completionCriteria.type vaut {type}.",
  "field.due_before_unlock": "Ne doit pas être antérieur à unlockAt.",
  "field.order_mismatch": "Doit lister chaque élément actuel exactement une fois, et rien d'autre.",
  "field.same_course_module": "Doit être un module du même cours.",
  "field.prerequisite_invalid": "Doit être un module du même cours placé avant celui-ci : {id}.",
  "field.order_breaks_prerequisites": "Cet ordre placerait un module avant l'un de ses prérequis.",
  "conflict.already_enrolled": "Cet utilisateur a déjà une inscription en cours dans ce cours.",
  "conflict.not_enrolled":
    "Cet utilisateur n'a pas d'inscription active ou terminée dans le cours de cette leçon.",
  "field.unknown_user": "Utilisateur inconnu : {id}.",
  "field.unknown_user_email": "Aucun utilisateur avec l'adresse {email}.",
  "field.unknown_course": "Cours inconnu : {id}.",
  "field.unknown_certificate_template": "Modèle de certificat inconnu : {id}.",
  "conflict.course_has_certificate_template":
    "Un autre modèle de certificat délivre déjà des certificats pour l’un de ces cours.",
  "conflict.certificate_template_archived":
    "Ce modèle de certificat est archivé et ne délivre aucun certificat.",
  "conflict.certificate_not_enrolled": "Cet utilisateur n’a aucune inscription à certifier dans ce cours.",
  "conflict.certificate_exists": "Cette inscription a déjà un certificat valide. Révoquez-le d’abord.",
  "conflict.certificate_revoked": "Ce certificat est déjà révoqué.",
  "field.after_starts_at": "Doit être postérieur au début de l'inscription ({startsAt}).",
  "field.user_or_email": "Indiquez exactement un champ parmi userId et email.",
  "field.grading_scale_order": "Doit être inférieur au minPercent de la tranche précédente.",
  "field.grading_scale_floor": "La dernière tranche doit commencer à 0.",
  "field.email_domain_not_allowed": "L'établissement n'admet que les adresses e-mail de : {domains}.",
  "field.profile_unknown": "Champ de profil inconnu : {key}.",
  "field.profile_option": "Doit être l'une des options du champ : {values}.",
  "field.profile_date": "Doit être une date au format AAAA-MM-JJ.",
  "field.profile_options_for_type":
    "Les options sont obligatoires pour les champs select et multiselect, et interdites pour les autres types.",
  "field.profile_validation_for_type": "N'est pas une règle de validation des champs {type}.",
  "field.regex": "Doit être une expression régulière valide.",
  "field.regex_backtracking":
    "Les références arrière et les assertions (lookahead, lookbehind) ne sont pas prises en charge : les motifs s’exécutent sur un moteur en temps linéaire.",
  "field.regex_unsupported":
    "Utilise une syntaxe que le moteur de motifs en temps linéaire ne prend pas en charge : {syntax}.",
  "field.html_too_complex":
    "A pris trop de temps à nettoyer : simplifiez le HTML (moins d’éléments imbriqués) ou divisez-le.",
  "field.regex_too_complex":
    "Est trop complexe pour la valeur la plus longue que ce champ accepte : utilisez des répétitions plus petites ou un maxLength plus faible.",
  "conflict.profile_value_taken": "Un autre utilisateur a déjà cette valeur dans un champ de profil unique.",
  "conflict.profile_key_taken": "Un champ de profil avec cette clé existe déjà.",
  "conflict.profile_unique_duplicates":
    "Des utilisateurs partagent déjà des valeurs de ce champ ; il ne peut pas devenir unique.",
  "conflict.profile_field_limit":
    "Un établissement peut définir au plus {limit, plural, one {# champ de profil} other {# champs de profil}}.",
  "conflict.theme_active": "C'est le thème actif : activez d'abord un autre thème.",
  "conflict.theme_activation_race": "Un autre thème a été activé en même temps. Réessayez.",
  "field.unknown_template_variable":
    "Variable inconnue '{{'{name}'}}' ; ce modèle peut utiliser : {allowed}.",
  "field.unknown_template": "Modèle d’e-mail inconnu : {key}.",
  "field.reset_token_invalid":
    "Ce lien de réinitialisation est invalide, expiré ou déjà utilisé. Demandez-en un nouveau.",
  "field.no_recipients": "Aucun de ces utilisateurs ne peut recevoir d’e-mail (inconnu ou sans adresse).",
  "field.custom_template_key":
    "La clé d’un modèle personnalisé est `custom.` suivi de 1 à 64 lettres minuscules, chiffres, `_` ou `-`.",
  "conflict.media_in_use":
    "{lessons, plural, one {# leçon utilise ce fichier} other {# leçons utilisent ce fichier}} : retirez-le d’abord, ou supprimez avec force=true.",
  "conflict.media_not_uploaded": "Rien n'a encore été envoyé pour ce fichier.",
  "conflict.media_already_uploaded": "Le contenu de ce fichier a déjà été envoyé.",
  "conflict.media_failed": "Cet envoi a échoué ({error}). Commencez-en un nouveau.",
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
  "field.unknown_folder": "Dossier du drive inconnu : {id}.",
  "field.unknown_class": "Classe inconnue : {id}.",
  "field.unknown_media": "Fichier inconnu : {id}.",
  "field.media_kind": "Le fichier {id} n'est pas de type {kind}.",
  "conflict.folder_name_taken": "Un dossier de ce nom existe déjà ici.",
  "conflict.folder_not_empty":
    "Ce dossier n'est pas vide. Videz-le d'abord, ou supprimez avec recursive=true.",
  "conflict.path_has_enrollments":
    "Ce parcours a des inscriptions. Supprimez-les d'abord ou supprimez avec force=true.",
  "field.path_prerequisite": "Doit être un autre cours de ce parcours : {id}.",
  "field.path_cycle": "Les prérequis ne doivent pas former de cycle : {ids}.",
  "field.path_required_course": "Un parcours doit avoir au moins un cours obligatoire.",
  "field.folder_cycle":
    "Un dossier ne peut pas être déplacé dans lui-même ni dans l'un de ses sous-dossiers.",
  "field.scope_target":
    "Indiquez courseId avec la portée course, classId avec la portée class, et aucun des deux avec la portée institution.",
  "field.scope_on_root_only":
    "Seul un dossier de premier niveau a sa propre portée ; un sous-dossier prend celle de son parent.",
  "field.upload_interrupted": "L'envoi a été interrompu avant que le corps n'arrive en entier ; renvoyez-le.",
  video_provider_error:
    "Le fournisseur vidéo est injoignable ou a refusé la demande. Veuillez réessayer plus tard.",
  "conflict.video_provider_in_use": "Des classes en direct encore programmées utilisent cette connexion.",
  "field.rrule_invalid": "Doit être une règle de récurrence RFC 5545 (RRULE) valide, sans DTSTART.",
  "field.too_many_occurrences":
    "La règle produit plus de {limit, plural, one {# occurrence} other {# occurrences}} ; indiquez COUNT ou UNTIL.",
  "field.rrule_too_frequent":
    "Se répète au plus une fois par jour : FREQ vaut DAILY, WEEKLY, MONTHLY ou YEARLY, à l'heure du début (sans BYHOUR, BYMINUTE ni BYSECOND).",
  "field.rrule_never":
    "La règle n’a aucune occurrence {years, plural, one {dans l’année qui suit} other {dans les # ans qui suivent}} le début.",
  "field.rrule_too_long":
    "La règle doit se terminer (COUNT ou UNTIL) {years, plural, one {dans l’année qui suit} other {dans les # ans qui suivent}} le début.",
  "field.window_too_long":
    "La période de `from` à `to` ne doit pas dépasser {days, plural, one {# jour} other {# jours}}.",
  "field.audience_required": "Indiquez un cours, une classe ou au moins un invité.",
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
  "field.video_provider_unusable": "Aucun fournisseur vidéo connecté pour les cours en direct n’a cet id.",
  "field.not_active_staff": "Doit être un enseignant ou un administrateur actif de cet établissement.",
  "field.lesson_not_in_course":
    "Aucune leçon de cet établissement n’a cet id, ou elle appartient à un autre cours que courseId.",
  "field.unknown_occurrence": "Ce cours en direct n’a aucune séance avec cet id.",
  "field.css_unreadable":
    "N’est pas un CSS lisible : vérifiez les accolades, les guillemets et les commentaires.",
  "field.profile_value_taken":
    "Un autre utilisateur a déjà cette valeur, et les valeurs de ce champ doivent être uniques.",
  "field.profile_values_shared":
    "Des utilisateurs partagent une valeur de ce champ : il ne peut devenir unique tant qu’elles ne diffèrent pas.",
  "field.profile_filter_value":
    "N’est pas une valeur que ce champ de profil accepte (voir son type et ses options).",
  "field.date_or_date_time":
    "Doit être une date (AAAA-MM-JJ) ou une date et heure avec son décalage (RFC 3339, p. ex. 2026-03-01T09:00:00Z).",
  "forbidden.gradebook_teacher":
    "Un enseignant ne peut voir et modifier que le carnet de notes des cours qu’il enseigne.",
  "field.unknown_grade_item": "Aucun élément de note de ce cours n’a cet id : {id}.",
  "field.unknown_grade_category": "Aucune catégorie de notes de ce cours n’a cet id : {id}.",
  "field.not_course_student": "Cet utilisateur n’est pas un étudiant actuel du cours : {id}.",
  "field.score_or_status": "Indiquez une note, une note de remplacement ou un statut.",
  "field.score_above_max": "Doit valoir au plus {max} (maxPoints de l’élément × 1,5).",
  "conflict.grade_item_has_grades":
    "Cet élément a des notes ; supprimez-le avec ?force=true pour les supprimer aussi.",
  "conflict.grade_limit": "Un cours en compte au plus {limit}.",
  "conflict.grade_source_taken": "Un autre élément de note de ce cours prend déjà ses notes de cette source.",
  "field.lesson_not_assignment": "Doit être une leçon de type assignment.",
  "field.lock_before_due": "Ne doit pas précéder la date de remise.",
  "field.submission_empty": "Indiquez bodyText, attachmentMediaIds ou url.",
  "field.kind_not_allowed": "Ce devoir n’accepte pas les remises de type {kind}.",
  "conflict.assignment_exists": "Cette leçon a déjà un devoir.",
  "conflict.assignment_has_submissions": "Ce devoir a des remises ; supprimez-le avec ?force=true.",
  "conflict.assignment_locked": "Ce devoir n’accepte plus de remises (verrouillé).",
  "conflict.submission_attempts_exhausted": "Cet utilisateur a utilisé toutes les tentatives du devoir.",
  "forbidden.submission_own": "Un élève ne peut remettre que son propre travail.",
};
