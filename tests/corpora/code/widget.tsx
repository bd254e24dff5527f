import React, { useState } from "react";

export interface WidgetProps {
  label: string;
}

/** A clickable counter. */
export function Widget({ label }: WidgetProps) {
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount(count + 1)}>{format(label, count)}</button>;
}

function format(label: string, n: number): string {
  return `${label}: ${n}`;
}

export class Panel extends React.Component<WidgetProps> {
  render() {
    return <div className="panel">{this.props.label}</div>;
  }
}
