import type { ReactNode } from 'react';
import { FileText, Globe, Lightbulb, MessageSquare, Mic, Music, Plus, ShieldCheck, Sparkles, Rocket, Upload, MessagesSquare } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';

export interface OnboardingStep {
  title: string;
  icon: LucideIcon;
  body: ReactNode;
}

function Feature({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3 rounded-lg border bg-muted/50 p-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-gradient-personality text-personality-foreground">
        <Icon className="size-4.5" aria-hidden="true" />
      </span>
      <span className="grid gap-0.5">
        <span className="text-sm font-medium">{title}</span>
        <span className="text-sm text-muted-foreground">{children}</span>
      </span>
    </li>
  );
}

/** The spec's four steps: welcome, documents, conversations, ready. */
export const onboardingSteps: OnboardingStep[] = [
  {
    title: 'Welcome to Kindred',
    icon: Sparkles,
    body: (
      <div className="grid gap-3 text-sm leading-relaxed text-muted-foreground">
        <p>
          Kindred lets you create AI personalities modelled on famous people or on people you know, shape how they
          behave, and talk with them.
        </p>
        <p>Here is a short tour of how it works. It takes less than a minute.</p>
      </div>
    ),
  },
  {
    title: 'Teach them with documents',
    icon: Upload,
    body: (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">Upload material so a personality knows what it should know:</p>
        <ul className="grid gap-2">
          <Feature icon={FileText} title="Text files">Plain text documents (TXT).</Feature>
          <Feature icon={Music} title="Audio">Speeches, interviews and MP3 recordings, transcribed for you.</Feature>
          <Feature icon={Globe} title="Web content">Articles from the web.</Feature>
        </ul>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <ShieldCheck className="size-4 shrink-0 text-success" aria-hidden="true" />
          Everything you upload is processed securely and privately.
        </p>
      </div>
    ),
  },
  {
    title: 'Talk with them',
    icon: MessagesSquare,
    body: (
      <div className="grid gap-3">
        <ul className="grid gap-2">
          <Feature icon={MessageSquare} title="Text chat">Type your questions and read the answers, with the documents they draw on.</Feature>
          <Feature icon={Mic} title="Voice chat">Speak and hear the personality answer in its own voice.</Feature>
        </ul>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <ShieldCheck className="size-4 shrink-0 text-success" aria-hidden="true" />
          Moderation keeps every conversation appropriate.
        </p>
      </div>
    ),
  },
  {
    title: "You're ready!",
    icon: Rocket,
    body: (
      <div className="grid gap-3 text-sm leading-relaxed text-muted-foreground">
        <p>
          Click{' '}
          <span className="inline-flex items-center gap-1 rounded-md bg-secondary px-1.5 py-0.5 font-medium text-secondary-foreground">
            <Plus className="size-3.5" aria-hidden="true" />
            Add Personality
          </span>{' '}
          to create your first personality, then upload documents to bring it to life.
        </p>
        <p className="flex gap-2 rounded-lg border border-gold/60 bg-accent/60 p-3 text-accent-foreground">
          <Lightbulb className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">Tip:</strong> start with 2-3 documents. You can always add more later.
          </span>
        </p>
      </div>
    ),
  },
];
