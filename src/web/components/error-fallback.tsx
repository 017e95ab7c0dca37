// The spec's error fallback (normal -> error -> normal on "Try Again") and the boundary that
// shows it for a render error anywhere below it.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RefreshCw, RotateCcw, TriangleAlert } from 'lucide-react';
import { Button } from './ui/button';
import { messages } from '../../shared/messages';

export interface ErrorFallbackProps {
  /** Clears the error state so the children render again. */
  onReset: () => void;
}

export function ErrorFallback({ onReset }: ErrorFallbackProps) {
  return (
    <div role="alert" className="flex min-h-[70dvh] items-center justify-center px-4 py-12">
      <div className="relative w-full max-w-md overflow-hidden rounded-2xl border bg-card p-6 text-center shadow-xl sm:p-8">
        <div className="absolute inset-x-0 top-0 h-1 bg-gradient-mystical" aria-hidden="true" />
        <div className="mx-auto mb-4 flex size-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <TriangleAlert className="size-7" aria-hidden="true" />
        </div>
        <h1 className="font-display text-2xl font-semibold tracking-tight">{messages.fallback.title}</h1>
        <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{messages.fallback.body}</p>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-center">
          <Button variant="outline" onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden="true" />
            Refresh Page
          </Button>
          <Button variant="mystical" onClick={onReset}>
            <RotateCcw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      </div>
    </div>
  );
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this value changes (e.g. the path), a shown error is cleared: a new page gets a fresh try. */
  resetKey?: unknown;
  /** Runs on "Try Again" before the children render again (e.g. drop cached server data that may be the cause). */
  onReset?: () => void;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    // The details stay in the console for whoever debugs; the person sees the spec's texts only.
    console.error('Render error caught by ErrorBoundary', error, info.componentStack);
  }

  reset = () => {
    this.props.onReset?.();
    this.setState({ error: null });
  };

  render() {
    if (this.state.error) return <ErrorFallback onReset={this.reset} />;
    return this.props.children;
  }
}
