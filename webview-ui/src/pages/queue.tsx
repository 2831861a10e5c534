// The queue tab (an editor tab): its own bundle.
import { QueueApp } from "../QueueApp";
import { mount } from "./mount";

mount(<QueueApp />);
