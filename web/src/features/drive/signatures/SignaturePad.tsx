import { Button, Space } from 'antd';
import { useEffect, useRef } from 'react';

/**
 * A canvas the user draws their signature on (mouse, pen or finger). `onChange` gets the drawing as a PNG data URL
 * after each stroke, or null once cleared.
 */
export function SignaturePad({ onChange }: { onChange: (png: string | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#1f2937';
  }, []);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) * event.currentTarget.width) / box.width,
      y: ((event.clientY - box.top) * event.currentTarget.height) / box.height,
    };
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <canvas
        ref={canvas}
        width={600}
        height={200}
        aria-label="Signature"
        className="signature-pad"
        style={{
          width: '100%',
          maxWidth: 600,
          height: 'auto',
          aspectRatio: '3 / 1',
          border: '1px dashed #bfbfbf',
          borderRadius: 8,
          touchAction: 'none',
          cursor: 'crosshair',
          background: '#fff',
        }}
        onPointerDown={(event) => {
          const context = event.currentTarget.getContext('2d');
          if (!context) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          drawing.current = true;
          const { x, y } = point(event);
          context.beginPath();
          context.moveTo(x, y);
        }}
        onPointerMove={(event) => {
          if (!drawing.current) return;
          const context = event.currentTarget.getContext('2d');
          const { x, y } = point(event);
          context?.lineTo(x, y);
          context?.stroke();
        }}
        onPointerUp={(event) => {
          if (!drawing.current) return;
          drawing.current = false;
          onChange(event.currentTarget.toDataURL('image/png'));
        }}
      />
      <Button
        size="small"
        onClick={() => {
          const element = canvas.current;
          element?.getContext('2d')?.clearRect(0, 0, element.width, element.height);
          onChange(null);
        }}
      >
        Clear
      </Button>
    </Space>
  );
}
