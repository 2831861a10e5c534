/** Placeholder panel: the agent cards arrive with the panel milestone. */
export function App() {
  return (
    <main>
      <p>Arcadia: the agent panel is coming. Transcripts are already followed by the engine.</p>
    </main>
  );
}
