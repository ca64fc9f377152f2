import type { FieldMessageKey } from "./en-US.js";

export const frFRFields: Readonly<Record<FieldMessageKey, string>> = {
  "field.ends_before_starts": "Doit être postérieur à startsAt.",
  "field.future_required": "Doit être dans le futur.",
  "field.max_days_ahead": "Doit être au plus à {days, plural, one {# jour} other {# jours}} d’aujourd’hui.",
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
  "field.over_time_limit":
    "Dépasse le temps que permet la tentative ({limit} secondes, plus {grace} secondes de tolérance).",
  "field.response_shape": "N'est pas une réponse valide à une question de type {type}.",
  "field.answers_need_fixed":
    "Des réponses ne peuvent être envoyées au début d'une tentative que si toutes les sections sont fixes ; démarrez la tentative, puis soumettez-la.",
  "field.timezone": "Doit être un fuseau horaire IANA, comme America/Sao_Paulo.",
  "field.host_name":
    "Doit être un nom de domaine en minuscules comportant au moins deux libellés, comme cours.exemple.fr, et non une adresse IP.",
  "field.host_reserved": "Ne doit pas être le domaine de la plateforme ni l’un de ses sous-domaines.",
  "field.tag_not_applicable": "Cette étiquette ne s’applique pas à {resourceType}.",
  "field.custom_limits_required": "Obligatoire lorsque rateTier vaut custom.",
  "field.custom_limits_forbidden": "Autorisé uniquement lorsque rateTier vaut custom.",
  "field.missing_scope": "Portée requise : {scope}.",
  "field.no_changes": "Indiquez au moins un champ à modifier.",
  "field.not_for_lesson_type": "Non disponible pour les leçons de type {type}.",
  "field.url_or_media": "Indiquez exactement un champ parmi url et mediaId.",
  "field.https_url": "Doit être une URL https.",
  "field.criteria_only": "Autorisé uniquement lorsque completionCriteria.type vaut {type}.",
  "field.due_before_unlock": "Ne doit pas être antérieur à unlockAt.",
  "field.order_mismatch": "Doit lister chaque élément actuel exactement une fois, et rien d'autre.",
  "field.same_course_module": "Doit être un module du même cours.",
  "field.prerequisite_invalid": "Doit être un module du même cours placé avant celui-ci : {id}.",
  "field.order_breaks_prerequisites": "Cet ordre placerait un module avant l'un de ses prérequis.",
  "field.unknown_user": "Utilisateur inconnu : {id}.",
  "field.unknown_user_email": "Aucun utilisateur avec l'adresse {email}.",
  "field.unknown_live_class": "Classe en direct inconnue : {id}.",
  "field.unknown_course": "Cours inconnu : {id}.",
  "field.unknown_certificate_template": "Modèle de certificat inconnu : {id}.",
  "field.unknown_learning_path": "Parcours inconnu : {id}.",
  "field.one_of_course_or_path": "Indiquez courseId ou learningPathId, pas les deux.",
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
  "field.unknown_template_variable":
    "Variable inconnue '{{'{name}'}}' ; ce modèle peut utiliser : {allowed}.",
  "field.unknown_template": "Modèle d’e-mail inconnu : {key}.",
  "field.reset_token_invalid":
    "Ce lien de réinitialisation est invalide, expiré ou déjà utilisé. Demandez-en un nouveau.",
  "field.no_recipients": "Aucun de ces utilisateurs ne peut recevoir d’e-mail (inconnu ou sans adresse).",
  "field.custom_template_key":
    "La clé d’un modèle personnalisé est `custom.` suivi de 1 à 64 lettres minuscules, chiffres, `_` ou `-`.",
  "field.unknown_folder": "Dossier du drive inconnu : {id}.",
  "field.unknown_class": "Classe inconnue : {id}.",
  "field.unknown_media": "Fichier inconnu : {id}.",
  "field.media_kind": "Le fichier {id} n'est pas de type {kind}.",
  "field.media_not_indexable":
    "Le fichier {id} ({contentType}) n'a pas de texte à indexer : seuls les PDF et les fichiers texte en ont.",
  "field.media_too_large": "Le fichier {id} dépasse les {max} octets qu'un document peut avoir.",
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
  "field.unknown_grade_item": "Aucun élément de note de ce cours n’a cet id : {id}.",
  "field.unknown_grade_category": "Aucune catégorie de notes de ce cours n’a cet id : {id}.",
  "field.not_course_student": "Cet utilisateur n’est pas un étudiant actuel du cours : {id}.",
  "field.score_or_status": "Indiquez une note, une note de remplacement ou un statut.",
  "field.score_above_max": "Doit valoir au plus {max} (maxPoints de l’élément × 1,5).",
  "field.unknown_rubric": "Aucune grille de l'établissement ou de ce cours n'a cet id : {id}.",
  "field.unknown_criterion": "La grille n'a aucun critère avec cet id : {id}.",
  "field.unknown_rating": "Le critère n'a aucun niveau avec cet id : {id}.",
  "field.criterion_unscored": "Chaque critère doit être noté ; celui-ci ne l'est pas : {id}.",
  "field.rubric_points": "Doit être entre {min} et {max} pour ce critère et ce niveau.",
  "field.unknown_target": "Aucune tentative de quiz de l'établissement n'a cet id : {id}.",
  "field.rubric_other_course": "La grille appartient à un autre cours que le travail évalué.",
  "field.csv_columns": "Le CSV doit avoir une ligne d'en-tête avec les colonnes : {columns}.",
  "field.lesson_not_assignment": "Doit être une leçon de type assignment.",
  "field.lock_before_due": "Ne doit pas précéder la date de remise.",
  "field.submission_empty": "Indiquez bodyText, attachmentMediaIds ou url.",
  "field.kind_not_allowed": "Ce devoir n’accepte pas les remises de type {kind}.",
  "field.template_undeclared": "Le modèle utilise la variable {name}, que variables ne déclare pas.",
  "field.variable_unused": "La variable {name} est déclarée mais le modèle ne l’utilise pas.",
  "field.template_placeholders":
    "Le modèle peut contenir au plus {limit, plural, one {# espace réservé} other {# espaces réservés}}.",
  "field.variable_missing": "La variable obligatoire {name} n’a pas de valeur.",
  "field.model_not_offered": "Doit être l’un des modèles du fournisseur : {models}.",
};
