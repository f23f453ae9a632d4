import { createRoute } from '@tanstack/react-router';
import { AdminDashboard } from '../components/admin/AdminDashboard';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Admin Dashboard (/admin): the server decides who may see it. */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  beforeLoad: guard('member'),
  component: AdminDashboard,
});
