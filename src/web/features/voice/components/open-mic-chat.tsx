// The "Open Mic Chat" tab (spec sections 2 and 4): Start Voice Chat, then simply talk; End Call
// hangs up. The status (disconnected, connecting, connected, disconnecting) and the mode
// (listening, speaking) are shown, with the volume and mute, the connect time, the average
// response time of this call and a "Pre-loaded" badge. Everything said lands in the same
// conversation log (and saved conversation) as the other tabs.
import { AlertTriangleIcon, LoaderCircleIcon, PhoneIcon, PhoneOffIcon, RotateCcwIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useVoiceCapabilities } from '../api/voice-api';
import { useOpenMic, type OpenMicOptions } from '../open-mic/use-open-mic';
import { AutoplayBlockedAlert, VolumeControls } from './speech-controls';

const DEFAULT_END_OF_TURN_MS = 900;

const STATUS_TEXT = { disconnected: 'Disconnected', connecting: 'Connecting...', connected: 'Connected', disconnecting: 'Disconnecting...' } as const;
const MODE_TEXT = { listening: 'Listening', speaking: 'Speaking' } as const;

const formatMs = (ms: number | null) => (ms === null ? '—' : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

export function OpenMicChat(props: Omit<OpenMicOptions, 'endOfTurnMs'>) {
  const capabilities = useVoiceCapabilities();
  const mic = useOpenMic({ ...props, endOfTurnMs: capabilities.data?.openMic.endOfTurnMs ?? DEFAULT_END_OF_TURN_MS });
  const { speech } = mic;
  const inCall = mic.status === 'connecting' || mic.status === 'connected';

  return (
    <div
      className="grid gap-4"
      data-testid="open-mic-chat"
      data-status={mic.status}
      data-mode={mic.mode}
      data-engine={mic.engine}
      // Exact figures for the benchmark (bench/open-mic.bench.ts); the screen shows them rounded.
      data-connect-ms={mic.connectMs ?? undefined}
      data-response-ms={mic.responseTimes.map((ms) => ms.toFixed(1)).join(' ')}
    >
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/30 px-3 py-2">
        <p role="status" aria-live="polite" aria-label="Call status" className="flex items-center gap-2 text-sm font-medium">
          {mic.status === 'connected' ? (
            <span aria-hidden className={`size-2.5 rounded-full ${mic.mode === 'speaking' ? 'animate-pulse bg-primary' : 'bg-emerald-500'}`} />
          ) : mic.status === 'disconnected' ? (
            <span aria-hidden className="size-2.5 rounded-full bg-muted-foreground/50" />
          ) : (
            <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />
          )}
          {STATUS_TEXT[mic.status]}
          {mic.status === 'connected' && <span className="text-muted-foreground">· {MODE_TEXT[mic.mode]}</span>}
        </p>
        <div className="flex items-center gap-2">
          {mic.preloaded && <Badge variant="secondary">Pre-loaded</Badge>}
          <Badge variant="outline">{mic.engine === 'agent' ? 'ElevenLabs agent' : 'Hands-free'}</Badge>
        </div>
      </div>

      {mic.problem && (
        <Alert variant="destructive" role="alert">
          <AlertTriangleIcon aria-hidden />
          <AlertTitle>{mic.problem.title ?? (mic.problem.canReconnect ? 'Call dropped' : 'Voice chat could not start')}</AlertTitle>
          <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
            <span>{mic.problem.message}</span>
            {mic.problem.canReconnect && (
              <Button size="sm" variant="outline" onClick={() => void mic.start()}>
                <RotateCcwIcon aria-hidden />
                Reconnect
              </Button>
            )}
          </AlertDescription>
        </Alert>
      )}

      <AutoplayBlockedAlert speech={speech} />

      <div className="flex flex-wrap items-center gap-3">
        {inCall ? (
          <Button variant="destructive" className="min-w-40" onClick={() => void mic.hangUp()}>
            <PhoneOffIcon aria-hidden />
            End Call
          </Button>
        ) : (
          <Button className="min-w-40" onClick={() => void mic.start()} disabled={mic.status === 'disconnecting'}>
            <PhoneIcon aria-hidden />
            Start Voice Chat
          </Button>
        )}

        <VolumeControls speech={speech} />
      </div>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:max-w-md">
        <div className="rounded-lg border px-3 py-2">
          <dt className="text-xs text-muted-foreground">Connect time</dt>
          <dd data-testid="connect-time" className="font-medium tabular-nums">{formatMs(mic.connectMs)}</dd>
        </div>
        <div className="rounded-lg border px-3 py-2">
          <dt className="text-xs text-muted-foreground">Average response time</dt>
          <dd data-testid="average-response-time" className="font-medium tabular-nums">
            {formatMs(mic.averageResponseMs)}
            {mic.responses > 0 && <span className="ml-1 text-xs font-normal text-muted-foreground">({mic.responses})</span>}
          </dd>
        </div>
      </dl>
    </div>
  );
}
