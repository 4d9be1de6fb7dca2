import { Avatar, Flex, Text } from '@radix-ui/themes';
import { useEffect, useId, useRef, useState } from 'react';

type AvatarPickerProps = {
  /** The newly picked file, if any: previewed locally before it is saved. */
  file: File | undefined;
  /** The URL of the stored avatar, shown when no new file is picked. */
  storedUrl: string | undefined;
  initials: string;
  error?: string;
  onPick: (file: File | undefined) => void;
};

/** The object URL of a picked file, revoked when the file changes or the picker unmounts. */
function useObjectUrl(file: File | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file) {
      setUrl(undefined);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

export function AvatarPicker({ file, storedUrl, initials, error, onPick }: AvatarPickerProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const previewUrl = useObjectUrl(file);

  // After a save (or a reset) the form drops the file: the input lets go of its name too.
  useEffect(() => {
    if (!file && inputRef.current) inputRef.current.value = '';
  }, [file]);
  const src = previewUrl ?? storedUrl;

  return (
    <Flex direction="column" gap="2">
      <Text asChild size="2" weight="medium">
        <label htmlFor={inputId}>Avatar</label>
      </Text>
      <Flex align="center" gap="4">
        {src ? (
          <img
            src={src}
            alt={previewUrl ? 'New avatar preview' : 'Your avatar'}
            width={64}
            height={64}
            style={{ borderRadius: '50%', objectFit: 'cover' }}
          />
        ) : (
          <Avatar size="5" radius="full" fallback={initials} />
        )}
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          aria-invalid={error ? true : undefined}
          onChange={(event) => onPick(event.target.files?.[0])}
        />
      </Flex>
      {error ? (
        <Text size="1" color="red">
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}
