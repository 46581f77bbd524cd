// THE operation table: the only place a path, method, API version or scope is written. Its facts
// are generated from the platform's published reference (src/api/generated/, by
// scripts/generate-operations.mjs); refinements.ts adds what the spec fixes and what cannot be
// undone. The client, the commands, the sandbox's router and the docs all read it here.
//
// The table comes in parts, one per command group, so a command loads only its own group's part
// (and a group's schemas only when it sends something): `loadGroup`/`loadOperation` load a part,
// `operation(id)` reads a loaded one.
import type { ZodMiniType } from 'zod/mini';
import { groupOf, REFERENCE_VERSIONS, schemasOf, tableOf, type GeneratedId, type GeneratedTable, type GroupName } from './generated/index.js';
import { ANSWERS_MANY, IRREVERSIBLE, refinements, type Refinement } from './refinements.js';
import type { VersionedSchemas, VersionSchemas } from './schema-facts.js';
import { summariesOf } from './summaries/index.js';

export { REFERENCE_VERSIONS, type GroupName };
export type OperationId = GeneratedId;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `id`: a positive 32-bit integer; `string`: any non-empty text. */
export type ParamKind = 'id' | 'string';

export interface OperationSchemas {
  body?: ZodMiniType;
  /** Query parameters, typed (arrays for repeatable ones); unknown ones are refused before sending. */
  query?: ZodMiniType;
  response: ZodMiniType;
  /** Reshapes an answer the platform may send in several forms (ANSWERS_MANY). */
  normalize?: (body: unknown) => unknown;
}

export interface Operation {
  id: OperationId;
  method: Method;
  /** Relative to `{base_url}/api/admin`, with `{name}` placeholders. */
  path: string;
  /** Every version whose reference has the operation, newest stable first. */
  versions: readonly string[];
  /** The X-Store-API-Version sent unless told otherwise: the spec's, else the newest stable version that has it. */
  version: string;
  /** Any one of these grants the call (every one, where `allScopes`); empty means a bare token suffices. */
  scopes: readonly string[];
  allScopes: boolean;
  /** Path parameters in the order they appear in `path`. */
  params: Readonly<Record<string, ParamKind>>;
  /** The words typed before the arguments: `orders fulfillments list`. */
  command: string;
  /** One line for people, for help and the docs (src/api/summaries/). */
  summary: string;
  group: GroupName;
  /** The status the platform answers on success (clients accept any 2xx). */
  success: number;
  /** `page`: a cursor page of records; `many`: a list; `one`: one object; `none`: no body (204). */
  answer: 'page' | 'many' | 'one' | 'none';
  /** The change cannot be undone: every DELETE, and the actions IRREVERSIBLE lists. */
  irreversible: boolean;
  /** The spec's section, for help and docs; undefined where only the platform's reference describes it. */
  section?: string;
  /** Earlier command names that keep working, and the id earlier releases gave it. */
  aliases: readonly string[];
  renamed?: string;
  deprecated: boolean;
  /** The schemas at a version (the default one when not given); loaded once per process. */
  schemas(version?: string): Promise<OperationSchemas>;
}

export const operationIds = Object.keys(groupOf) as OperationId[];
export const groupNames = [...new Set(Object.values(groupOf))].sort() as GroupName[];

const loaded = new Map<string, Operation>();
const loadingGroups = new Map<GroupName, Promise<Operation[]>>();

/** An operation of a loaded group; `loadOperation` or `loadGroup` first. */
export function operation(id: OperationId): Operation {
  const op = loaded.get(id);
  if (!op) throw new Error(`The table's ${groupOf[id] ?? 'unknown'} part is not loaded (${id})`);
  return op;
}

export async function loadOperation(id: OperationId): Promise<Operation> {
  if (!Object.hasOwn(groupOf, id)) throw new Error(`No operation ${id}`);
  await loadGroup(groupOf[id]);
  return operation(id);
}

/** A group's part of the table, made once. */
export function loadGroup(group: GroupName): Promise<Operation[]> {
  let loading = loadingGroups.get(group);
  if (!loading) {
    loading = Promise.all([tableOf[group](), summariesOf[group]()]).then(([{ operations }, { summaries }]) => {
      const made = Object.entries(operations).map(([id, facts]) => entryOf(id as OperationId, facts as Facts, group, summaries[id]!));
      for (const op of made) loaded.set(op.id, op);
      return made;
    });
    loadingGroups.set(group, loading);
  }
  return loading;
}

/** Every group's part: the sandbox, the docs, completion and `operations` need them all. */
export async function loadAllOperations(): Promise<Operation[]> {
  return (await Promise.all(groupNames.map(loadGroup))).flat();
}

/** The operation an earlier release called `renamed` (history and run journals keep those ids). */
export function currentId(id: string): OperationId | undefined {
  if (Object.hasOwn(groupOf, id)) return id as OperationId;
  for (const [current, refinement] of Object.entries(refinements) as [OperationId, Refinement][]) if (refinement.renamed === id) return current;
  return undefined;
}

type Facts = GeneratedTable[OperationId] & { deprecated?: true };

function entryOf(id: OperationId, facts: Facts, group: GroupName, summary: string): Operation {
  const refinement: Refinement = (refinements as Partial<Record<OperationId, Refinement>>)[id] ?? {};
  const versions = facts.versions as readonly string[];
  const version = refinement.version ?? versions.find((v) => v !== 'unstable') ?? versions[0]!;
  const answer = ANSWERS_MANY.has(id) ? 'many' : (facts.answer as Operation['answer']);
  const schemas = schemaLoader(id, group, version, answer === 'many');
  return {
    id,
    method: facts.method,
    path: facts.path,
    versions,
    version,
    scopes: facts.scopes as readonly string[],
    allScopes: refinement.allScopes === true,
    params: facts.params as Readonly<Record<string, ParamKind>>,
    command: facts.command,
    summary,
    group,
    success: facts.success,
    answer,
    irreversible: facts.method === 'DELETE' || IRREVERSIBLE.has(id),
    ...(refinement.section ? { section: refinement.section } : {}),
    aliases: refinement.aliases ?? [],
    ...(refinement.renamed ? { renamed: refinement.renamed } : {}),
    deprecated: facts.deprecated === true,
    schemas,
  };
}

const groupSchemas = new Map<GroupName, Promise<Record<string, VersionedSchemas>>>();

function schemaLoader(id: OperationId, group: GroupName, defaultVersion: string, many: boolean) {
  const built = new Map<string, OperationSchemas>();
  return async (version: string = defaultVersion): Promise<OperationSchemas> => {
    let schemas = built.get(version);
    if (schemas) return schemas;
    let module = groupSchemas.get(group);
    if (!module) groupSchemas.set(group, (module = schemasOf[group]().then((loaded) => loaded.schemas)));
    const perVersion = (await module)[id] ?? {};
    // A version the reference lacks is read with the default version's schemas (--api-version may name any).
    let entry = perVersion[version] ?? perVersion[defaultVersion]!;
    if (typeof entry === 'string') entry = perVersion[entry] as () => VersionSchemas;
    const facts = entry();
    // The reference's schema of such an answer is one item; what the client reads is the list normalize makes.
    schemas = many ? { ...facts, response: (await import('zod/mini')).array(facts.response), normalize: asList } : facts;
    built.set(version, schemas);
    return schemas;
  };
}

/** A list answer in any of the forms a store sends: a bare array, one bare object, or a `{results}` page. */
function asList(body: unknown): unknown {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { results?: unknown }).results)) return (body as { results: unknown[] }).results;
  return body === undefined || body === null ? [] : [body];
}

/** The versions as help and docs show them: `2023-02-10 (also 2024-04-01, unstable)`. */
export function describeVersions(op: Operation, mark: (version: string) => string = (version) => version): string {
  const others = op.versions.filter((v) => v !== op.version);
  return others.length ? `${mark(op.version)} (also ${others.map(mark).join(', ')})` : mark(op.version);
}

/** Where an operation's definition comes from, as help and docs show it. */
export function sourceOf(op: Pick<Operation, 'section'>): string {
  return op.section ? `spec ${op.section}` : "the platform's published reference";
}

