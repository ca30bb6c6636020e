import { AjvCompiler, type BuildCompilerFromPool, type RouteDefinition } from '@fastify/ajv-compiler';
import { compiledOnce } from './compiled-once.ts';

// Request validators shared by every app this process builds, as serializers are (shared-serializers.ts):
// Fastify reads a validator's `errors` in the same turn it calls it, so one function serves every app.
const compiled = new Map<string, unknown>();
const pool = AjvCompiler();

/** Fastify's validator factory (schemaController.compilersFactory.buildValidator), compiled once per schema. */
export const sharedValidatorFactory: BuildCompilerFromPool = (externalSchemas, options) => {
  // Fastify calls the compiler with a route definition, not the bare schema Ajv's type names.
  const compile = pool(externalSchemas, options) as unknown as (route: RouteDefinition) => unknown;
  return compiledOnce(
    compiled,
    [externalSchemas ?? null, options?.customOptions ?? null],
    compile,
  ) as unknown as ReturnType<BuildCompilerFromPool>;
};
