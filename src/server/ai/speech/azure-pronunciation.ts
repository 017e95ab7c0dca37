// Azure Speech pronunciation assessment on its REST endpoint for short audio:
//   POST {endpoint}/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=detailed
//   headers Ocp-Apim-Subscription-Key, Content-Type audio/wav (16 kHz mono PCM) and
//   Pronunciation-Assessment: base64 of {ReferenceText, GradingSystem, Granularity, Dimension, EnableMiscue}
// The endpoint takes at most 30 s of audio, so longer recordings go in pieces, each with the share of
// the reference words its length stands for. Words come back with AccuracyScore and ErrorType.
import { splitWav, toMono16k } from './audio-file';
import { networkError, SpeechProviderError } from './speech-types';
import { providerErrorText } from '../provider-error-text';
import { referenceWords, type ScoredWord } from './pronunciation-report';
import type { WordErrorType } from '../../../shared/schemas/pronunciation';
import { WORD_ERROR_TYPES } from '../../../shared/schemas/pronunciation';

export const AZURE_MAX_SECONDS = 30;

export interface AzurePronunciationOptions {
  key: string;
  region?: string;
  /** An explicit endpoint (tests, sovereign clouds); else the region's. */
  endpoint?: string;
  language?: string;
}

interface AzureWord {
  Word?: string;
  AccuracyScore?: number;
  ErrorType?: string;
  PronunciationAssessment?: { AccuracyScore?: number; ErrorType?: string };
}

interface AzureAnswer {
  RecognitionStatus?: string;
  NBest?: { Words?: AzureWord[] }[];
}

export function createAzurePronunciation(options: AzurePronunciationOptions) {
  const base = (options.endpoint ?? `https://${options.region}.stt.speech.microsoft.com`).replace(/\/+$/, '');
  const url = `${base}/speech/recognition/conversation/cognitiveservices/v1?language=${encodeURIComponent(options.language ?? 'en-US')}&format=detailed`;

  async function assessPiece(wav: Uint8Array, referenceText: string, signal?: AbortSignal): Promise<ScoredWord[]> {
    const config = { ReferenceText: referenceText, GradingSystem: 'HundredMark', Granularity: 'Word', Dimension: 'Comprehensive', EnableMiscue: true };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': options.key,
          'Content-Type': 'audio/wav; codecs=audio/pcm; samplerate=16000',
          Accept: 'application/json',
          'Pronunciation-Assessment': Buffer.from(JSON.stringify(config), 'utf8').toString('base64'),
        },
        body: new Uint8Array(wav),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(30_000)]) : AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw networkError(err, 'Azure Speech');
    }
    if (!res.ok) {
      // Azure's error body ({ error: { code, message } }) says why; for the log only (voice.service.ts).
      const text = providerErrorText(await res.text().catch(() => ''), 200);
      throw new SpeechProviderError(res.status === 429 ? 'rate_limit' : 'failed', `Azure Speech answered ${res.status}${text ? `: ${text}` : ''}`, res.status);
    }
    const body = (await res.json().catch(() => ({}))) as AzureAnswer;
    // "Error": the service failed, reported as any failure is. The others (NoMatch,
    // InitialSilenceTimeout, BabbleTimeout) mean none of the meant words was recognised in the
    // audio: each is an omission, as Azure itself marks a word it did not hear (lower-cased, as
    // Azure gives its words).
    if (body.RecognitionStatus === 'Error') throw new SpeechProviderError('failed', 'Azure Speech answered RecognitionStatus Error');
    if (body.RecognitionStatus && body.RecognitionStatus !== 'Success') {
      return referenceWords(referenceText).map((word) => ({ word: word.toLowerCase(), accuracyScore: 0, errorType: 'Omission' as const }));
    }
    return (body.NBest?.[0]?.Words ?? []).map((w) => {
      const score = w.PronunciationAssessment?.AccuracyScore ?? w.AccuracyScore ?? 0;
      const type = w.PronunciationAssessment?.ErrorType ?? w.ErrorType ?? 'None';
      return {
        word: String(w.Word ?? ''),
        accuracyScore: Math.max(0, Math.min(100, Number(score) || 0)),
        errorType: (WORD_ERROR_TYPES as readonly string[]).includes(type) ? (type as WordErrorType) : 'Mispronunciation',
      };
    });
  }

  return {
    engine: 'azure' as const,
    approximate: false,
    /** Word scores for a PCM WAV (any rate and channels) against what the person meant to say. */
    async assess(recording: Uint8Array, referenceText: string, signal?: AbortSignal): Promise<ScoredWord[]> {
      // The endpoint reads 16 kHz mono PCM only (a browser's recording is; an API client's WAV may
      // be 44.1 kHz stereo, which it would misread or refuse).
      const wav = toMono16k(recording) ?? recording;
      const pieces = splitWav(wav, AZURE_MAX_SECONDS);
      if (pieces.length <= 1) return assessPiece(wav, referenceText, signal);
      // Each piece gets the reference words in proportion to its length.
      const words = referenceWords(referenceText);
      const total = pieces.reduce((sum, p) => sum + p.seconds, 0);
      const out: ScoredWord[] = [];
      let from = 0;
      for (let k = 0; k < pieces.length; k++) {
        const to = k === pieces.length - 1 ? words.length : Math.round(words.length * (pieces.slice(0, k + 1).reduce((s, p) => s + p.seconds, 0) / total));
        out.push(...(await assessPiece(pieces[k]!.bytes, words.slice(from, to).join(' '), signal)));
        from = to;
      }
      return out;
    },
  };
}

export type AzurePronunciation = ReturnType<typeof createAzurePronunciation>;
