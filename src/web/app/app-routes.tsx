import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingStatus } from '../components/loading-status';
import { lazyNamed } from '../lib/lazy-named';
import { useAccountSync } from '../features/auth/hooks/use-account-sync';
import { MainLayout } from './main-layout';
import { HomeRoute } from './routes/home-route';
import { NotFoundRoute } from './routes/not-found-route';

// Screens most visitors never open load on demand, keeping the first page's JavaScript small.
const AdminPage = lazyNamed(() => import('../features/admin/components/admin-page'), 'AdminPage');
const AuthScreen = lazyNamed(() => import('../features/auth/components/auth-screen'), 'AuthScreen');

/** Shown while a screen's code loads (usually a few milliseconds from the immutable cache). */
export function ScreenLoading() {
  return (
    <LoadingStatus className="justify-center py-24" />
  );
}

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ScreenLoading />}>{children}</Suspense>;
}

// Declarative routes: render errors reach our own ErrorBoundary (a data router would catch them
// itself and show React Router's default error page instead of the spec's fallback).
export function AppRoutes() {
  // A new account (signed in or out in another tab, or the session ended) starts every screen afresh.
  const accountGeneration = useAccountSync();
  return (
    <Routes key={accountGeneration}>
      <Route element={<MainLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="admin" element={<Lazy><AdminPage /></Lazy>} />
      </Route>
      <Route path="auth" element={<Lazy><AuthScreen /></Lazy>} />
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
