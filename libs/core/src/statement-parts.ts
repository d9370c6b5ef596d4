/** A part of a statement: SQL with placeholders numbered from $1, and their values. */
export interface StatementPart {
  sql: string;
  params: readonly unknown[];
}

/**
 * One SQL statement that several modules write parts of (decisions.md 42.3): each module adds
 * its writes as named common table expressions over its own tables, numbering its placeholders
 * from $1, and the composer renumbers them into one parameter list. A part may read the rows a
 * part added before it returns (by the name it was added under): a guard that returns no row
 * makes every part that selects from it write nothing. The statement is one round trip and one
 * implicit transaction: it writes all of its parts or none.
 *
 * Parts must not contain `$` other than their placeholders (no dollar quoting, no `$` in literals).
 */
export class StatementParts {
  private readonly ctes: string[] = [];
  private readonly values: unknown[] = [];
  private readonly names = new Set<string>();

  /** Adds `name AS (part)`; answers the name, for the parts that read it. */
  add(name: string, part: StatementPart): string {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`StatementParts: ${name} is not a plain lower-case name`);
    if (this.names.has(name)) throw new Error(`StatementParts: ${name} was added before`);
    const sql = this.renumbered(part);
    this.names.add(name);
    this.ctes.push(`${name} AS (${sql})`);
    return name;
  }

  /** The whole statement: the parts, then `select` (whose placeholders are renumbered too). */
  build(select: StatementPart): { sql: string; params: unknown[] } {
    const tail = this.renumbered(select);
    return { sql: this.ctes.length > 0 ? `WITH ${this.ctes.join(',\n')}\n${tail}` : tail, params: [...this.values] };
  }

  private renumbered(part: StatementPart): string {
    const offset = this.values.length;
    const sql = part.sql.replace(/\$(\d+)/g, (_, n: string) => {
      const index = Number(n);
      if (index < 1 || index > part.params.length) throw new Error(`StatementParts: $${index} has no value (the part has ${part.params.length})`);
      return `$${index + offset}`;
    });
    this.values.push(...part.params);
    return sql;
  }
}
