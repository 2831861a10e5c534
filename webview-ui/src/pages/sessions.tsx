// The Sessions list (an editor tab): its own bundle.
import { SessionsApp } from "../SessionsApp";
import { mount } from "./mount";

mount(<SessionsApp />);
