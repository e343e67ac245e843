/** What every page needs: the API client and who is signed in. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api';
import type { Me } from './session';

export interface Console {
  api: Api;
  me: Me;
  signOut(): void;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
