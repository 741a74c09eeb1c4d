/**
 * The identifiers the wizard asks for, checked with the same patterns as the
 * gcp and azure plugins' host schemas (`project`, `subscription`), so what the
 * wizard accepts the plugin accepts. Identifiers only: credentials stay where
 * each cloud's SDK finds them.
 */
export const GCP_PROJECT_RE = /^[a-z][-a-z0-9.:]{4,62}$/;
export const AZURE_SUBSCRIPTION_RE = /^[0-9a-fA-F-]{36}$/;

export const GCP_PROJECT_HINT = 'a GCP project id: a lowercase letter, then 4 to 62 lowercase letters, digits, - . or :';
export const AZURE_SUBSCRIPTION_HINT = 'an Azure subscription id: a UUID like 00000000-0000-0000-0000-000000000000';
