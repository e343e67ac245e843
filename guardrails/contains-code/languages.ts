/** Code formats by name, and the fence tags (```tag) that name each, as written in Markdown. */
export const CODE_FORMATS = [
  'SQL', 'Python', 'TypeScript', 'JavaScript', 'Java', 'C#', 'C++', 'C', 'Ruby', 'PHP', 'Swift', 'Kotlin', 'Go',
  'Rust', 'Scala', 'R', 'Perl', 'Shell', 'HTML', 'CSS', 'XML', 'JSON', 'YAML', 'Markdown', 'Dockerfile',
] as const;

export type CodeFormat = (typeof CODE_FORMATS)[number];

const TAGS: Record<CodeFormat, readonly string[]> = {
  SQL: ['sql', 'mysql', 'postgresql', 'psql', 'sqlite', 'plsql', 'tsql'],
  Python: ['python', 'py', 'python3', 'py3'],
  TypeScript: ['typescript', 'ts', 'tsx'],
  JavaScript: ['javascript', 'js', 'jsx', 'mjs', 'cjs', 'node'],
  Java: ['java'],
  'C#': ['csharp', 'cs', 'c#'],
  'C++': ['cpp', 'c++', 'cxx', 'cc', 'hpp'],
  C: ['c', 'h'],
  Ruby: ['ruby', 'rb'],
  PHP: ['php'],
  Swift: ['swift'],
  Kotlin: ['kotlin', 'kt', 'kts'],
  Go: ['go', 'golang'],
  Rust: ['rust', 'rs'],
  Scala: ['scala', 'sc'],
  R: ['r'],
  Perl: ['perl', 'pl', 'pm'],
  Shell: ['shell', 'sh', 'bash', 'zsh', 'console', 'shellscript', 'ps1', 'powershell'],
  HTML: ['html', 'htm', 'xhtml'],
  CSS: ['css', 'scss', 'sass', 'less'],
  XML: ['xml', 'svg', 'xsl'],
  JSON: ['json', 'jsonc', 'json5'],
  YAML: ['yaml', 'yml'],
  Markdown: ['markdown', 'md'],
  Dockerfile: ['dockerfile', 'docker'],
};

/** Fence tag (lower case) → format. */
export const FORMAT_BY_TAG: ReadonlyMap<string, CodeFormat> = new Map(
  (Object.entries(TAGS) as [CodeFormat, readonly string[]][]).flatMap(([format, tags]) => tags.map((t) => [t, format] as const)),
);
