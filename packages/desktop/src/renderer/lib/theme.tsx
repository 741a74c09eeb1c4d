import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

type Choice = 'light' | 'dark';
const ThemeContext = createContext<{ dark: boolean; toggle(): void }>({ dark: false, toggle: () => {} });

function initial(): Choice {
  const saved = localStorage.getItem('netbench-theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Light and dark themes: the system's choice until the user picks one (remembered). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setTheme] = useState<Choice>(initial);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);
  const toggle = () =>
    setTheme((t) => {
      const next = t === 'dark' ? 'light' : 'dark';
      localStorage.setItem('netbench-theme', next);
      return next;
    });
  return <ThemeContext.Provider value={{ dark: theme === 'dark', toggle }}>{children}</ThemeContext.Provider>;
}

export function useTheme() {
  return useContext(ThemeContext);
}
