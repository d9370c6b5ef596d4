/** The words a field whose effect is not built yet carries in its OpenAPI description (docs/settings.md). */
export const STORED_NO_EFFECT = 'stored, no effect yet';

/** @nestjs/swagger's metadata key for one property's @ApiProperty options. */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/**
 * Marks body fields the API accepts and stores but whose effect is owed by open work (issue 22,
 * docs/settings.md): their OpenAPI description gains "*stored, no effect yet* — owed by …", so no
 * client is misled. One call per DTO class, beside the class, with `{ field: 'issue N (what)' }`;
 * the inventory test (test/platform/settings-inventory.spec.ts) keeps this list, the document and
 * docs/settings.md the same. A field leaves the list when its effect lands.
 */
export function markStoredNoEffect(dto: abstract new (...args: never[]) => unknown, owedBy: Readonly<Record<string, string>>): void {
  for (const [field, owner] of Object.entries(owedBy)) {
    const options = Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, field) as { description?: string } | undefined;
    if (!options) throw new Error(`${dto.name}.${field} has no @ApiProperty: it cannot be marked "${STORED_NO_EFFECT}"`);
    const note = `*${STORED_NO_EFFECT}* — owed by ${owner}`;
    if (options.description?.includes(STORED_NO_EFFECT)) continue;
    Reflect.defineMetadata(API_MODEL_PROPERTIES, { ...options, description: options.description ? `${options.description}. ${note}` : note }, dto.prototype, field);
  }
}

/** The fields marked on a DTO class (read back from its OpenAPI metadata). */
export function storedNoEffectFields(dto: abstract new (...args: never[]) => unknown, fields: readonly string[]): string[] {
  return fields.filter((field) => {
    const options = Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, field) as { description?: string } | undefined;
    return options?.description?.includes(STORED_NO_EFFECT) ?? false;
  });
}
