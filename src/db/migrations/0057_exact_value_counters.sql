-- Issue 20: three filters of one value still counted their matches up to the cap on every request (10,001 index
-- entries for a common value at 100,000 rows, 5 to 7 times the cost of the page at 1,000): the messages of one
-- e-mail template, the users holding one value of a profile field, and pending or expired invitations. The first
-- two get counters here; invitations reuse their status counters (invites/totals.ts).
--
-- Both new buckets can be NULL (an ad-hoc message has no template; a multi-choice value has no match key): such a
-- row has no value counter, as aula_count_rows skips NULL buckets since migration 0055.
-- `email_messages:template_key:<key>`: the template never changes on a message; the update trigger moves only the
-- status's counter (an unchanged template nets to zero and is not written).
DROP TRIGGER IF EXISTS email_messages_count_insert ON email_messages;--> statement-breakpoint
DROP TRIGGER IF EXISTS email_messages_count_delete ON email_messages;--> statement-breakpoint
DROP TRIGGER IF EXISTS email_messages_count_update ON email_messages;--> statement-breakpoint
CREATE TRIGGER email_messages_count_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status', 'template_key');
--> statement-breakpoint
CREATE TRIGGER email_messages_count_delete AFTER DELETE ON email_messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status', 'template_key');
--> statement-breakpoint
CREATE TRIGGER email_messages_count_update AFTER UPDATE ON email_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status');
--> statement-breakpoint
-- `user_profile_values:field_id+match_key:<field>:<key>`: the users holding one value of one field. A value is
-- rewritten in place (an upsert), so the update trigger moves it from its old key to its new one. The trigger
-- also keeps the table's total (`user_profile_values`), which nothing reads yet.
CREATE TRIGGER user_profile_values_count_insert AFTER INSERT ON user_profile_values REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
CREATE TRIGGER user_profile_values_count_delete AFTER DELETE ON user_profile_values REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
CREATE TRIGGER user_profile_values_count_update AFTER UPDATE ON user_profile_values REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'email_messages:template_key:' || template_key AS counter, count(*) AS n
    FROM email_messages WHERE template_key IS NOT NULL GROUP BY tenant_id, template_key
    UNION ALL
    SELECT tenant_id, 'user_profile_values', count(*)
    FROM user_profile_values GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'user_profile_values:field_id+match_key:' || field_id || ':' || match_key, count(*)
    FROM user_profile_values WHERE match_key IS NOT NULL GROUP BY tenant_id, field_id, match_key
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
