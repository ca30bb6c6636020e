import { AjvCompiler, type BuildCompilerFromPool, type RouteDefinition } from '@fastify/ajv-compiler';

/**
 * Request validators shared by every app this process builds, as shared-serializers.ts shares
 * serializers: Ajv's code for a schema depends only on the schema, the external schemas and
 * Ajv's options, and Fastify reads a validator's `errors` in the same turn it calls it.
 */
const compiled = new Map<string, unknown>();
const pool = AjvCompiler();

/** Fastify's validator factory (schemaController.compilersFactory.buildValidator), compiled once per schema. */
export const sharedValidatorFactory: BuildCompilerFromPool = (externalSchemas, options) => {
  // Fastify calls the compiler with a route definition, not the bare schema Ajv's type names.
  const compile = pool(externalSchemas, options) as unknown as (route: RouteDefinition) => unknown;
  const context = JSON.stringify([externalSchemas ?? null, options?.customOptions ?? null]);
  const shared = (route: RouteDefinition) => {
    const key = `${context}\n${JSON.stringify(route.schema ?? null)}`;
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = compile(route);
      compiled.set(key, validate);
    }
    return validate;
  };
  return shared as unknown as ReturnType<BuildCompilerFromPool>;
};
