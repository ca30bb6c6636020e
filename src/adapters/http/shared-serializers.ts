import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';

/**
 * Response serializers shared by every app this process builds: a serializer is a pure function
 * of its schema and options, and compiling one (a fresh Ajv instance and generated code per
 * route and status) is most of what building an app costs, which every test suite pays again.
 */
const compiled = new Map<string, Serializer>();
const compileOne = SerializerSelector();

/** Fastify's serializer factory (schemaController.compilersFactory.buildSerializer), compiled once per schema. */
export const sharedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = compileOne(externalSchemas, options);
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema ?? null)}`;
    let serializer = compiled.get(key);
    if (serializer === undefined) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
