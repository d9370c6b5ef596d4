/**
 * The scope catalogue (decisions.md 4.5): `<area>.view` and `<area>.edit` per area. API keys carry a
 * subset; members hold them through their role.
 */
export const SCOPE_AREAS = [
  'agents',
  'campaigns',
  'campaign_types',
  'calls',
  'phone_numbers',
  'whatsapp',
  'email',
  'crm',
  'workflows',
  'functions',
  'documents',
  'exports',
  'billing',
] as const;

export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type Scope = `${ScopeArea}.view` | `${ScopeArea}.edit`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_AREAS.flatMap((area) => [
  `${area}.view` as Scope,
  `${area}.edit` as Scope,
]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

export const MEMBER_ROLES = ['owner', 'admin', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a member can do now, by role: owner and admin hold every scope, viewer every `*.view`. */
export function roleGrants(role: MemberRole, scope: Scope): boolean {
  if (role === 'owner' || role === 'admin') return true;
  return scope.endsWith('.view');
}
