import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { KindredLogo } from '../../../components/layout/kindred-logo';
import { useViewer } from '../hooks/use-viewer';
import { AuthMessage, type AuthNotice } from './auth-message';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

type AuthTab = 'sign-in' | 'sign-up';

/** /auth: Sign In and Sign Up tabs over one message area. A signed-in visitor is sent to /. */
export function AuthScreen() {
  const { user } = useViewer();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>('sign-in');
  // One e-mail for both tabs: after signing up, the Sign In tab already holds it.
  const [email, setEmail] = useState('');
  const [notice, setNotice] = useState<AuthNotice | null>(null);

  if (user) return <Navigate to="/" replace />;

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md">
        <Link
          to="/"
          className="mx-auto mb-6 flex w-fit items-center gap-3 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <KindredLogo className="size-11" />
          <span className="font-display text-3xl font-semibold tracking-tight mystical-text">Kindred</span>
        </Link>
        <Card className="relative overflow-hidden">
          <div className="absolute inset-x-0 top-0 h-1 bg-gradient-mystical" aria-hidden="true" />
          <CardHeader className="text-center">
            {/* The page's one h1, with a card title's look. */}
            <h1 data-slot="card-title" className="font-display text-xl leading-tight font-semibold tracking-tight">
              {tab === 'sign-in' ? 'Welcome back' : 'Join Kindred'}
            </h1>
            <CardDescription>
              {tab === 'sign-in'
                ? 'Sign in to create personalities and continue your conversations.'
                : 'Create an account to shape personalities of your own.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <Tabs
              value={tab}
              onValueChange={(value) => {
                setTab(value as AuthTab);
                setNotice(null);
              }}
            >
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="sign-in">Sign In</TabsTrigger>
                <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
              </TabsList>
              <TabsContent value="sign-in" className="pt-2">
                <SignInForm
                  email={email}
                  onEmailChange={setEmail}
                  onNotice={setNotice}
                  onSignedIn={() => void navigate('/', { replace: true })}
                />
              </TabsContent>
              <TabsContent value="sign-up" className="pt-2">
                <SignUpForm
                  email={email}
                  onEmailChange={setEmail}
                  onNotice={setNotice}
                  onSignedIn={() => void navigate('/', { replace: true })}
                />
              </TabsContent>
            </Tabs>
            {/* The alert announces itself (role alert or status) when it appears. */}
            <AuthMessage notice={notice} />
          </CardContent>
        </Card>
        <p className="mt-6 text-center text-sm">
          <Link
            to="/"
            className="inline-flex items-center gap-1.5 rounded text-muted-foreground underline-offset-4 outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            Continue without an account
          </Link>
        </p>
      </div>
    </main>
  );
}
