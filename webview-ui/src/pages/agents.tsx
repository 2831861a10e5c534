// The agents panel (the bottom panel's webview): its own bundle, without the reader's Markdown.
import { App } from "../App";
import { mount } from "./mount";

mount(<App />);
