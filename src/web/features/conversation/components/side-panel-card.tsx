// The frame every side-panel card with an icon shares: icon and title in the header, the body below.
import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

interface Props {
  icon: LucideIcon;
  title: string;
  testId: string;
  children: ReactNode;
}

export function SidePanelCard({ icon: Icon, title, testId, children }: Props) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Icon className="size-4 text-muted-foreground" aria-hidden />
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
