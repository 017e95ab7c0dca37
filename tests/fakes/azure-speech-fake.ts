// A loopback Azure Speech server for pronunciation assessment, speaking the REST short-audio wire
// format: POST /speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=detailed
// with Ocp-Apim-Subscription-Key and a base64 JSON Pronunciation-Assessment header; the answer is
// the detailed NBest form with a PronunciationAssessment per word. Words named in `mispronounce`
// score low (Mispronunciation), those in `omit` are Omissions, every other word of the reference
// scores 95. Failures on demand: 'unauthorized' (401), 'server_error' (500).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAzureSettings {
  mispronounce: string[];
  omit: string[];
  fail: 'none' | 'unauthorized' | 'server_error';
  /** The answer's RecognitionStatus: anything but Success comes without NBest, as Azure sends it. */
  recognition: 'Success' | 'NoMatch' | 'InitialSilenceTimeout' | 'BabbleTimeout' | 'Error';
}

export interface RecordedAssessment {
  key: string | undefined;
  contentType: string | undefined;
  language: string | null;
  format: string | null;
  config: { ReferenceText?: string; GradingSystem?: string; Granularity?: string; EnableMiscue?: boolean };
  bytes: number;
  /** The WAV's sample rate, when the body is one. */
  sampleRate?: number;
}

export interface FakeAzure {
  /** Use as AZURE_SPEECH_ENDPOINT. */
  url: string;
  settings: FakeAzureSettings;
  requests: RecordedAssessment[];
  set(next: Partial<FakeAzureSettings>): void;
  close(): Promise<void>;
}

export async function startFakeAzureSpeech(): Promise<FakeAzure> {
  const settings: FakeAzureSettings = { mispronounce: [], omit: [], fail: 'none', recognition: 'Success' };
  const requests: RecordedAssessment[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method !== 'POST' || url.pathname !== '/speech/recognition/conversation/cognitiveservices/v1') {
        return void res.writeHead(404).end();
      }
      const body = Buffer.concat(parts);
      let config: RecordedAssessment['config'] = {};
      try {
        config = JSON.parse(Buffer.from(String(req.headers['pronunciation-assessment'] ?? ''), 'base64').toString('utf8'));
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad Pronunciation-Assessment header' }));
      }
      const record: RecordedAssessment = {
        key: req.headers['ocp-apim-subscription-key'] as string | undefined,
        contentType: req.headers['content-type'],
        language: url.searchParams.get('language'),
        format: url.searchParams.get('format'),
        config,
        bytes: body.length,
        sampleRate: body.subarray(0, 4).toString('latin1') === 'RIFF' ? body.readUInt32LE(24) : undefined,
      };
      requests.push(record);
      if (!record.key || settings.fail === 'unauthorized') return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: '401', message: 'Access denied due to invalid subscription key.' } }));
      if (settings.fail === 'server_error') return void res.writeHead(500).end('Internal error');
      // The short-audio endpoint reads 16 kHz mono PCM, as its Content-Type says: a WAV that is not is refused.
      const channels = record.sampleRate !== undefined ? body.readUInt16LE(22) : undefined;
      if (record.sampleRate !== undefined && (record.sampleRate !== 16000 || channels !== 1)) {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'InvalidArgument', message: `Unsupported audio format: ${record.sampleRate} Hz, ${channels} channels.` } }));
      }
      if (settings.recognition !== 'Success') {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ RecognitionStatus: settings.recognition, Offset: 0, Duration: 0 }));
      }
      const words = String(config.ReferenceText ?? '')
        .split(/\s+/)
        .map((w) => w.replace(/[^\p{L}\p{N}']/gu, ''))
        .filter(Boolean);
      const scored = words.map((w) => {
        const low = w.toLowerCase();
        const [score, type] = settings.omit.includes(low) ? [0, 'Omission'] : settings.mispronounce.includes(low) ? [35, 'Mispronunciation'] : [95, 'None'];
        return { Word: low, Offset: 0, Duration: 0, PronunciationAssessment: { AccuracyScore: score, ErrorType: type } };
      });
      const accuracy = scored.length ? scored.reduce((s, w) => s + w.PronunciationAssessment.AccuracyScore, 0) / scored.length : 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          RecognitionStatus: 'Success',
          Offset: 0,
          Duration: 10_000_000,
          NBest: [
            {
              Confidence: 0.95,
              Lexical: words.join(' ').toLowerCase(),
              Display: String(config.ReferenceText ?? ''),
              PronunciationAssessment: { AccuracyScore: accuracy, FluencyScore: 90, CompletenessScore: 100, PronScore: accuracy },
              Words: scored,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    settings,
    requests,
    set(next) {
      Object.assign(settings, next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
