import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
import { compiledOnce } from './compiled-once.ts';

// Response serializers shared by every app this process builds: a serializer is a pure function of its schema and options.
const compiled = new Map<string, Serializer>();
const compileOne = SerializerSelector();

/** Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), compiled once per schema. */
export const sharedSerializerFactory: SerializerFactory = (externalSchemas, options) =>
  compiledOnce(compiled, [externalSchemas ?? null, options ?? null], compileOne(externalSchemas, options));
