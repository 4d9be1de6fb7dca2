import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Back in history, or to `fallback` when this screen was the first one opened (a bookmark, a new tab). */
export function useGoBack(fallback: string) {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (location.key === 'default') void navigate(fallback);
    else void navigate(-1);
  }, [fallback, location.key, navigate]);
}
