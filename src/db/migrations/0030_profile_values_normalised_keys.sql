-- hand-written below
-- Profile values compare by a normalised key (src/modules/profile-fields/comparison-key.ts): lowercase, Unicode's
-- default-ignorable characters (zero-width spaces and joiners, soft hyphen, bidirectional controls…) removed, NFKC,
-- doubled and end spaces dropped, lowercase again. `Ｓ-1`, `S\u200b-1` and `S-1` are one value; the value itself
-- stays as typed. The key was the lowercased text, so it is the input here, and the steps are those of
-- comparisonKey after its first lowercase (the character list is the same, range for range).
-- A value another user of the same field already holds under the new key (two users that were told apart only by
-- a look-alike before) keeps its old unique key, so this cannot fail on existing data; the first holder by user id
-- (or the one whose key does not change) takes the new one. New writes of either look-alike then conflict.
WITH rekeyed AS (
  SELECT v."tenant_id", v."user_id", v."field_id", v."unique_key" AS old_unique,
    lower(btrim(regexp_replace(normalize(regexp_replace(v."match_key",
      '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]',
      '', 'g'), NFKC), ' {2,}', ' ', 'g'), ' ')) AS new_key
  FROM "user_profile_values" v
  JOIN "profile_fields" f ON f."tenant_id" = v."tenant_id" AND f."id" = v."field_id"
  WHERE f."type" IN ('text', 'textarea', 'phone', 'url', 'email') AND v."match_key" IS NOT NULL
),
ranked AS (
  SELECT r.*, row_number() OVER (
    PARTITION BY r."tenant_id", r."field_id", r.new_key ORDER BY (r.old_unique = r.new_key) DESC, r."user_id"
  ) AS holder
  FROM rekeyed r WHERE r.old_unique IS NOT NULL
)
UPDATE "user_profile_values" v
SET "match_key" = r.new_key,
  "unique_key" = CASE WHEN k.holder = 1 THEN r.new_key ELSE v."unique_key" END
FROM rekeyed r
LEFT JOIN ranked k ON k."tenant_id" = r."tenant_id" AND k."user_id" = r."user_id" AND k."field_id" = r."field_id"
WHERE v."tenant_id" = r."tenant_id" AND v."user_id" = r."user_id" AND v."field_id" = r."field_id"
  AND (v."match_key" IS DISTINCT FROM r.new_key
    OR (k.holder = 1 AND v."unique_key" IS DISTINCT FROM r.new_key));
