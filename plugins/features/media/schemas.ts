/**
 * The request bodies of the image and audio endpoints, after OpenAI's API reference (images:
 * create, create edit; audio: create speech, transcription, translation). Unknown fields pass on
 * to providers, as on the other inference endpoints. Form bodies (edits, transcriptions,
 * translations) arrive here parsed (form.ts): numbers and booleans already read from their text,
 * file parts as FormFile values.
 */
import { compile, FormFile, Nullable, StringEnum, Type, type Issue, type TSchema } from '../../../core/index.js';

const Model = Type.String({ minLength: 1 });
/** One of `values`, or null (OpenAI allows null for most optional fields); reported with the values. */
const NullableEnum = (values: string[]) => Type.Union([StringEnum(values), Type.Null()], {
  errorMessage: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')} or null`,
});
const Prompt = Type.String({ minLength: 1, maxLength: 32000 });
const N = Nullable(Type.Integer({ minimum: 1, maximum: 10 }));
const Size = NullableEnum(['auto', '256x256', '512x512', '1024x1024', '1536x1024', '1024x1536', '1792x1024', '1024x1792']);
const ImageQuality = NullableEnum(['auto', 'standard', 'hd', 'low', 'medium', 'high']);
const ImageResponseFormat = NullableEnum(['url', 'b64_json']);
const Background = NullableEnum(['transparent', 'opaque', 'auto']);
const OutputFormat = NullableEnum(['png', 'jpeg', 'webp']);
const OutputCompression = Nullable(Type.Integer({ minimum: 0, maximum: 100 }));
const PartialImages = Nullable(Type.Integer({ minimum: 0, maximum: 3 }));
const Stream = Nullable(Type.Boolean());
const User = Type.String();
/** A file part; what it must be is checked after the schema (fileIssues). */
const FilePart = Type.Unknown();

const imageGeneration = Type.Object({
  prompt: Prompt,
  model: Type.Optional(Nullable(Model)),
  n: Type.Optional(N),
  size: Type.Optional(Size),
  quality: Type.Optional(ImageQuality),
  response_format: Type.Optional(ImageResponseFormat),
  style: Type.Optional(NullableEnum(['vivid', 'natural'])),
  background: Type.Optional(Background),
  moderation: Type.Optional(NullableEnum(['low', 'auto'])),
  output_format: Type.Optional(OutputFormat),
  output_compression: Type.Optional(OutputCompression),
  partial_images: Type.Optional(PartialImages),
  stream: Type.Optional(Stream),
  user: Type.Optional(User),
});

const imageEdit = Type.Object({
  image: FilePart,
  prompt: Prompt,
  mask: Type.Optional(FilePart),
  model: Type.Optional(Nullable(Model)),
  n: Type.Optional(N),
  size: Type.Optional(Size),
  quality: Type.Optional(ImageQuality),
  response_format: Type.Optional(ImageResponseFormat),
  background: Type.Optional(Background),
  input_fidelity: Type.Optional(NullableEnum(['high', 'low'])),
  output_format: Type.Optional(OutputFormat),
  output_compression: Type.Optional(OutputCompression),
  partial_images: Type.Optional(PartialImages),
  stream: Type.Optional(Stream),
  user: Type.Optional(User),
});

const speech = Type.Object({
  model: Model,
  input: Type.String({ minLength: 1, maxLength: 4096 }),
  voice: Type.Union([Type.String({ minLength: 1 }), Type.Object({ id: Type.String({ minLength: 1 }) })], {
    errorMessage: 'must be a voice name or an object with a voice id',
  }),
  instructions: Type.Optional(Type.String({ maxLength: 4096 })),
  response_format: Type.Optional(StringEnum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'])),
  speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4 })),
  stream_format: Type.Optional(StringEnum(['sse', 'audio'])),
});

const Temperature = Type.Number({ minimum: 0, maximum: 1 });

const transcription = Type.Object({
  file: FilePart,
  model: Model,
  language: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]+)*$', errorMessage: 'must be an ISO-639-1 language code' })),
  prompt: Type.Optional(Type.String()),
  response_format: Type.Optional(StringEnum(['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'])),
  temperature: Type.Optional(Temperature),
  timestamp_granularities: Type.Optional(Type.Array(StringEnum(['word', 'segment']), { minItems: 1 })),
  include: Type.Optional(Type.Array(StringEnum(['logprobs']))),
  stream: Type.Optional(Stream),
});

const translation = Type.Object({
  file: FilePart,
  model: Model,
  prompt: Type.Optional(Type.String()),
  response_format: Type.Optional(StringEnum(['json', 'text', 'srt', 'verbose_json', 'vtt'])),
  temperature: Type.Optional(Temperature),
});

/** A validator of one body: the schema, then the file parts (which JSON schemas cannot describe). */
function validator(schema: TSchema, files: { name: string; many?: boolean }[] = []): (body: unknown) => Issue[] {
  const compiled = compile(schema);
  return (body) => {
    if (!compiled.check(body)) return compiled.issues(body);
    const b = body as Record<string, unknown>;
    for (const { name, many } of files) {
      const value = b[name];
      if (value === undefined) continue; // optional (a required one is reported by the schema)
      const all = many && Array.isArray(value) ? value : [value];
      if (all.length === 0 || !all.every((v) => v instanceof FormFile)) {
        return [{ path: name, rule: many ? 'must be one or more file parts' : 'must be a file part' }];
      }
      if (all.some((f) => (f as FormFile).bytes.byteLength === 0)) return [{ path: name, rule: 'must not be an empty file' }];
    }
    return [];
  };
}

export const validateImageGeneration = validator(imageGeneration);
export const validateImageEdit = validator(imageEdit, [{ name: 'image', many: true }, { name: 'mask' }]);
export const validateSpeech = validator(speech);
export const validateTranscription = validator(transcription, [{ name: 'file' }]);
export const validateTranslation = validator(translation, [{ name: 'file' }]);

/** Form fields read as numbers and booleans (a form carries only text). */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(['n', 'temperature', 'output_compression', 'partial_images']);
export const BOOLEAN_FIELDS: ReadonlySet<string> = new Set(['stream']);
