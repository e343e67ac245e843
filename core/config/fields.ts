// TEMPORARY placeholder; replaced with the names of every top-level key of the §2.1 schema.
export const ConfigFieldNames: readonly string[] = [];
