import { Button, Flex, Kbd, Popover, Text } from '@radix-ui/themes';

import { AppTheme } from '@/components/app-theme';

import { REVIEW_SHORTCUTS, SHORTCUTS_HELP_ATTRIBUTE, type ShortcutHelp } from './review-shortcuts';

type ShortcutsHelpProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** what the keys do on this screen (the review's by default) */
  shortcuts?: readonly ShortcutHelp[];
};

/** 'Keyboard shortcuts': the screen's shortcuts in a popover, also opened and closed with '?'. */
export function ShortcutsHelp({ open, onOpenChange, shortcuts = REVIEW_SHORTCUTS }: ShortcutsHelpProps) {
  return (
    <AppTheme>
      <Popover.Root open={open} onOpenChange={onOpenChange}>
        <Popover.Trigger>
          <Button variant="soft" color="gray" aria-keyshortcuts="?">
            Keyboard shortcuts
          </Button>
        </Popover.Trigger>
        <Popover.Content maxWidth="360px" aria-label="Keyboard shortcuts" {...{ [SHORTCUTS_HELP_ATTRIBUTE]: '' }}>
          <Text as="div" size="2" weight="bold" mb="2">
            Keyboard shortcuts
          </Text>
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 12px', alignItems: 'baseline' }}>
            {shortcuts.map(({ keys, joiner, action }) => (
              <div key={action} style={{ display: 'contents' }}>
                <dt>
                  <Flex gap="1" align="baseline">
                    {keys.map((key, index) => (
                      <Text key={key} size="1" color="gray">
                        {index > 0 ? `${joiner} ` : ''}
                        <Kbd>{key}</Kbd>
                      </Text>
                    ))}
                  </Flex>
                </dt>
                <dd style={{ margin: 0 }}>
                  <Text size="2">{action}</Text>
                </dd>
              </div>
            ))}
          </dl>
          <Text as="p" size="1" color="gray" mt="3">
            Shortcuts do not work while you type in a field.
          </Text>
        </Popover.Content>
      </Popover.Root>
    </AppTheme>
  );
}
