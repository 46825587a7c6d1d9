import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  module: string;
  children: ReactNode;
  /** Where the error goes (the console by default; the shell passes its reporter). */
  onError?: (error: Error, info: ErrorInfo) => void;
  /** Runs before Try Again renders the module again (the shell forgets the module's cached data). */
  onRetry?: () => void;
}

interface State {
  error: Error | null;
}

/** One per module: a crash shows the spec's message with Try Again, and the rest of the app keeps working. */
export class ModuleErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    if (this.props.onError) this.props.onError(error, info);
    // eslint-disable-next-line no-console -- the browser console is the report of last resort
    else console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        data-testid="module-error"
        status="error"
        title={`${this.props.module} Error`}
        subTitle="Something went wrong in this section. The error has been reported."
        extra={
          <Button
            type="primary"
            onClick={() => {
              this.props.onRetry?.();
              this.setState({ error: null });
            }}
          >
            Try Again
          </Button>
        }
      />
    );
  }
}
