/**
 * feature.media: OpenAI's image and audio endpoints, through the kernel's inference lifecycle
 * (routing, retries, fallback, limits, cache, logs):
 *
 *   POST /v1/images/generations     imageGenerate        JSON; stream: true → events (partial_images)
 *   POST /v1/images/edits           imageEdit            multipart (image, mask); stream: true → events
 *   POST /v1/audio/speech           createSpeech         JSON; the audio bytes streamed back as they come,
 *                                                        or events with stream_format: "sse"
 *   POST /v1/audio/transcriptions   createTranscription  multipart (file); stream: true → events
 *   POST /v1/audio/translations     createTranslation    multipart (file)
 *
 * Forms are read whole into memory before routing (form.ts), bounded by the body limit, so that a
 * retry or a fallback sends the same file again; each attempt writes its form anew (its target's
 * params applied). Answers other than JSON (audio, srt/vtt/text transcripts) pass through as they
 * come (EndpointDef.rawAnswer). A provider without the endpoint answers 400 unsupported_endpoint.
 */
import { Services, Type, type EndpointDef, type Plugin, type PluginApi, type RequestContext, type Static } from '../../../core/index.js';
import { readForm } from './form.js';
import {
  validateImageEdit, validateImageGeneration, validateSpeech, validateTranscription, validateTranslation,
} from './schemas.js';
import { guardMediaStream } from './stream-guard.js';

const Options = Type.Object({
  /** Largest form (image edits, audio uploads), bytes; default the gateway's body limit. */
  maxFormBytes: Type.Optional(Type.Integer({ minimum: 1 })),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const media = (id: string, validate: EndpointDef['validate'], streamable: boolean): EndpointDef => ({
  id, validate, streamable, rawAnswer: true, guardStream: guardMediaStream,
});

export const IMAGE_GENERATE = media('imageGenerate', validateImageGeneration, true);
export const IMAGE_EDIT = media('imageEdit', validateImageEdit, true);
export const CREATE_SPEECH = media('createSpeech', validateSpeech, false);
export const CREATE_TRANSCRIPTION = media('createTranscription', validateTranscription, true);
export const CREATE_TRANSLATION = media('createTranslation', validateTranslation, false);

const ROUTES: { path: string; endpoint: EndpointDef; form: boolean }[] = [
  { path: '/v1/images/generations', endpoint: IMAGE_GENERATE, form: false },
  { path: '/v1/images/edits', endpoint: IMAGE_EDIT, form: true },
  { path: '/v1/audio/speech', endpoint: CREATE_SPEECH, form: false },
  { path: '/v1/audio/transcriptions', endpoint: CREATE_TRANSCRIPTION, form: true },
  { path: '/v1/audio/translations', endpoint: CREATE_TRANSLATION, form: true },
];

export default class MediaPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.media',
    description: 'Image generation and edits, speech, transcriptions and translations (OpenAI format)',
    options: Options,
  };

  apply(api: PluginApi<Options>): void {
    const kernel = api.services.get(Services.Kernel);
    const maxFormBytes = api.options.maxFormBytes ?? api.services.get(Services.Settings).bodyLimit;
    const run = kernel.runInference.bind(kernel);
    const runForm = async (ctx: RequestContext) => {
      // The form is read after onRequest (auth, limits): an unknown caller cannot make us read it.
      ctx.request.body = await readForm(ctx.request, maxFormBytes);
      return kernel.runInference(ctx);
    };
    for (const { path, endpoint, form } of ROUTES) {
      api.registries.endpoints.register(endpoint.id, endpoint, api.id);
      api.registries.routes.add({ method: 'POST', path, body: form ? 'stream' : 'json', endpoint, handler: form ? runForm : run });
    }
  }
}
