import { useEffect, useRef, useState } from 'react';

/**
 * A thin bar at the top of the page: while `loading` it advances towards 90 percent (never past it); when loading
 * stops it completes to 100 percent and fades out.
 */
export function LoadingBar({ loading }: { loading: boolean }) {
  const [progress, setProgress] = useState(0);
  const [visible, setVisible] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    window.clearInterval(timer.current);
    if (loading) {
      setVisible(true);
      setProgress(10);
      timer.current = window.setInterval(() => {
        setProgress((value) => Math.min(90, value + (90 - value) * 0.15));
      }, 200);
      return () => {
        window.clearInterval(timer.current);
      };
    }
    setProgress((value) => (value > 0 ? 100 : 0));
    const hide = window.setTimeout(() => {
      setVisible(false);
      setProgress(0);
    }, 300);
    return () => {
      window.clearTimeout(hide);
    };
  }, [loading]);

  if (!visible) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading"
      aria-valuenow={Math.round(progress)}
      aria-valuemin={0}
      aria-valuemax={100}
      data-testid="loading-bar"
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        width: `${progress}%`,
        background: 'var(--ant-color-primary, #1677ff)',
        transition: 'width 200ms ease-out, opacity 300ms',
        opacity: progress >= 100 ? 0 : 1,
        zIndex: 2000,
      }}
    />
  );
}
