import { Route, Routes } from 'react-router';
import { AdminPage } from '../features/admin/components/admin-page';
import { AuthScreen } from '../features/auth/components/auth-screen';
import { MainLayout } from './main-layout';
import { HomeRoute } from './routes/home-route';
import { NotFoundRoute } from './routes/not-found-route';

// Declarative routes: render errors reach our own ErrorBoundary (a data router would catch them
// itself and show React Router's default error page instead of the spec's fallback).
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<MainLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="admin" element={<AdminPage />} />
      </Route>
      <Route path="auth" element={<AuthScreen />} />
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
